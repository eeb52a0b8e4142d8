// The prompt canvas_step (docs/agents.md, "MCP prompts"): listed and got through both official
// clients (v1 at 2025-11-25, v2 pinned to 2026-07-28), the same text as canvas_read's prompt,
// refused as a read is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { readWatch } from '../../src/store/watch/watch-files.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession, SDKS } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

describe.each(SDKS)('the prompt canvas_step through the %s client', (sdk) => {
  let ws: Workspace;
  let reader: McpSession;
  let stranger: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-prompt-');
    const o = (await openCanvas(ws, { ledger: 'plan', problem: 'Ship the release.', expectedValue: 'A release on Friday.', why: 'plan the release', author: 'leo' })) as Applied;
    const q = (await insertNode(ws, { ledger: 'plan', after: o.nodes![1]!, payload: { question: 'Who signs off?' }, base: o.revision, why: 'nobody owns the sign-off yet', author: 'leo' })) as Applied;
    expect(q.outcome).toBe('applied');
    await grantRole(ws, { ledger: 'plan', who: 'ana', role: 'viewer', why: 'ana reads the plan', author: 'leo' });
    [reader, stranger] = await Promise.all([connectAs(ws, 'ana', { sdk }), connectAs(ws, 'zed', { sdk })]);
    expect(reader.protocol).toBe(sdk === 'v2' ? '2026-07-28' : '2025-11-25');
  });

  afterAll(async () => {
    await Promise.all([reader?.close(), stranger?.close()]);
  });

  it('is listed with its two arguments, ledger required', async () => {
    expect(await reader.listPrompts()).toEqual([
      {
        name: 'canvas_step',
        description: expect.stringContaining('instead of the conversation'),
        arguments: [
          { name: 'ledger', required: true },
          { name: 'edits', description: 'how many latest edits (default 10)', required: false },
        ],
      },
    ]);
  });

  it('gives one user message: the text canvas_read gives with format text, byte for byte, and makes the reader a watcher', async () => {
    expect(readWatch(ws, 'ana', 'plan')).toBeNull();
    const messages = await reader.getPrompt('canvas_step', { ledger: 'plan' });
    const read = await reader.call('canvas_read', { workspace: ws.root, ledger: 'plan', format: 'text' });
    const content = (read.structured as { content: string }).content;
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: content } }]);
    const snapshot = await readSnapshot(ws, { ledger: 'plan' });
    expect(content).toBe(renderPrompt(snapshot, { surface: 'mcp' }));
    expect(content).toContain(`Canvas-Base: ${snapshot.revision}`);
    expect(content).toContain('Who signs off?');
    expect(readWatch(ws, 'ana', 'plan')?.cursor).toBe(snapshot.revision);
  });

  it('shows as many edits as asked', async () => {
    const [message] = (await reader.getPrompt('canvas_step', { ledger: 'plan', edits: '1' })) as Array<{ content: { text: string } }>;
    const snapshot = await readSnapshot(ws, { ledger: 'plan', edits: 1 });
    expect(message!.content.text).toBe(renderPrompt(snapshot, { edits: 1, surface: 'mcp' }));
    expect(message!.content.text).toContain('Recent edits (newest first, 1):');
  });

  it('refuses as a read does: -32602 with the error shape as data', async () => {
    const refusal = async (who: McpSession, args: Record<string, string>) => {
      const e = (await who.getPrompt('canvas_step', args).then(
        () => null,
        (err: unknown) => err,
      )) as { code: number; data?: { code: string; hint: string } } | null;
      expect(e).not.toBeNull();
      expect(e!.code).toBe(-32602);
      return e!.data!;
    };
    expect(await refusal(stranger, { ledger: 'plan' })).toMatchObject({ code: 'NO_ROLE', hint: expect.stringContaining('canvas_grant') });
    expect(readWatch(ws, 'zed', 'plan')).toBeNull();
    expect((await refusal(reader, { ledger: 'nope' })).code).toBe('CANVAS_NOT_FOUND');
    expect((await refusal(reader, { ledger: 'plan', edits: 'ten' })).code).toBe('USAGE');
    // The SDK refuses a missing argument before the prompt runs.
    await expect(reader.getPrompt('canvas_step', {})).rejects.toMatchObject({ code: -32602 });
  });
});
