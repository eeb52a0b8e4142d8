// What the command line reaches, MCP reaches through the same store functions (docs/mcp.md, "The
// tools"): the done artifact, verify, and import of a Markdown decision record, which over MCP
// takes the Markdown itself and never reads a path. And a client on a revision before structured
// content reads each answer as text.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli, tempWorkspace } from '../helpers/workspace.js';

const RECORD = [
  '---',
  'status: accepted',
  '---',
  '# Use one repository for every canvas',
  '',
  'Canvases of one workspace share a git repository.',
  '',
  '## Options',
  '',
  '| option | cost |',
  '| --- | --- |',
  '| one repository | one lock |',
  '| one per canvas | many clones |',
  '',
  '- fewer clones',
  '- one history',
  '',
].join('\n');

/** A canvas's XML with its minted ids and versions left out: its content and shape. */
const shape = (xml: string) => xml.replace(/ id="[a-z0-9]+"/g, '').replace(/ ledger="[^"]+"/, '');

describe('the done artifact, verify and import over MCP', () => {
  let ws: Workspace;
  let leo: McpSession;
  let zed: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-reach-');
    await openCanvas(ws, { ledger: 'task', problem: 'Deploys fail on Fridays.', expectedValue: 'Deploys pass every day.', why: 'a task', author: 'leo' });
    [leo, zed] = await Promise.all([connectAs(ws, 'leo'), connectAs(ws, 'zed')]);
  });

  afterAll(async () => {
    await Promise.all([leo.close(), zed.close()]);
  });

  it('canvas_import writes what canvas import writes from the same Markdown, and the caller owns it', async () => {
    const r = (await leo.write('canvas_import', { workspace: ws.root, ledger: 'adr-1', markdown: RECORD, why: 'the decision record' })) as Applied & { flattened: unknown[] };
    expect(r).toMatchObject({ outcome: 'applied', node: null, diff: [] });
    const other = tempWorkspace('canvas-cli-import-');
    const file = join(tempDir('canvas-import-file-'), 'adr-1.md');
    writeFileSync(file, RECORD);
    const cli = await runCli(other, ['import', 'adr-1', '--markdown', file, '--why', 'the decision record', '--json'], { CANVAS_AUTHOR: 'leo' });
    expect(cli.code, cli.stderr).toBe(0);
    const imported = JSON.parse(cli.stdout) as { nodes: Array<{ id: string }>; flattened: unknown[] };
    const [mcpXml, cliXml] = [(await readCanvasText(ws, { ledger: 'adr-1' })).xml, (await readCanvasText(other, { ledger: 'adr-1' })).xml];
    expect(shape(mcpXml)).toBe(shape(cliXml));
    expect(r.nodes).toHaveLength(imported.nodes.length);
    expect(r.flattened).toEqual(imported.flattened);
    expect((await leo.read('adr-1')).base).toBe(r.revision);
    // The importer is its owner: a grant is theirs to give.
    expect(await leo.write('canvas_grant', { workspace: ws.root, ledger: 'adr-1', who: 'zed', role: 'viewer', why: 'zed reviews it' })).toMatchObject({ outcome: 'applied' });
    // Imported once: again is CANVAS_EXISTS, nothing written.
    expect(await leo.write('canvas_import', { workspace: ws.root, ledger: 'adr-1', markdown: RECORD, why: 'again' })).toMatchObject({ outcome: 'rejected', code: 'CANVAS_EXISTS' });
  });

  it('canvas_import takes the Markdown itself: a path is imported as its own words, never read', async () => {
    const secret = join(tempDir('canvas-import-secret-'), 'secret.md');
    writeFileSync(secret, '# The secret\n\nnot for the caller\n');
    expect(await leo.write('canvas_import', { workspace: ws.root, ledger: 'by-path', markdown: secret, why: 'a path, not a record' })).toMatchObject({ outcome: 'applied' });
    const xml = (await readCanvasText(ws, { ledger: 'by-path' })).xml;
    expect(xml).toContain(secret);
    expect(xml).not.toContain('not for the caller');
    expect(await leo.write('canvas_import', { workspace: ws.root, ledger: 'blank', markdown: '\n\n', why: 'nothing to import' })).toMatchObject({ outcome: 'rejected', code: 'IMPORT_FAILED' });
  });

  it('canvas_verify reports what verify reports on the canvas, and needs viewer', async () => {
    const r = await leo.call('canvas_verify', { workspace: ws.root, ledger: 'task' });
    expect(r.structured).toEqual(JSON.parse(JSON.stringify(await verifyWorkspace(ws, { ledger: 'task' }))));
    expect(r.structured).toMatchObject({ ok: true, violations: [] });
    expect((await zed.error('canvas_verify', { workspace: ws.root, ledger: 'task' })).code).toBe('NO_ROLE');
  });

  it('canvas_freeze with withDone brings the done artifact of the frozen revision, as canvas render --format done --json gives it', async () => {
    const frozen = (await leo.write('canvas_freeze', { workspace: ws.root, ledger: 'task', why: 'deploys pass on Fridays now', withDone: true })) as Applied & { done: { revision: string; ending: unknown } };
    expect(frozen).toMatchObject({ outcome: 'applied', node: null });
    const cli = await runCli(ws, ['render', 'task', '--at', frozen.revision, '--format', 'done', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(frozen.done).toEqual(JSON.parse(cli.stdout));
    expect(frozen.done).toMatchObject({ revision: frozen.revision, ending: { kind: 'frozen', reason: 'deploys pass on Fridays now' } });
    // Without withDone, the outcome alone.
    expect(await leo.write('canvas_freeze', { workspace: ws.root, ledger: 'task', why: 'frozen again' })).not.toHaveProperty('done');
    await grantRole(ws, { ledger: 'task', who: 'zed', role: 'viewer', why: 'zed reads the result', author: 'leo' });
    expect((await zed.call('canvas_read', { workspace: ws.root, ledger: 'task', format: 'done' })).structured).toMatchObject({ format: 'done', done: { ledger: 'task' } });
  });
});

describe('a client on a revision before structured content', () => {
  it('reads each answer as text too: the read as canvas read prints it, anything else as JSON', async () => {
    const ws = tempWorkspace('canvas-mcp-old-client-');
    await openCanvas(ws, { ledger: 'old', problem: 'A client from 2025-03.', expectedValue: 'It reads text.', why: 'a task', author: 'eve' });
    const { revision, xml } = await readCanvasText(ws, { ledger: 'old' });
    const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { workspace: ws.root, ledger: 'old', ...args } } });
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'canvas-test', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call(2, 'canvas_read', {}),
      call(3, 'canvas_history', {}),
    ];
    const r = await runCli(null, ['mcp', '--as', 'eve', '--workspace', ws.root], {}, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(r.code, r.stderr).toBe(0);
    const answers = new Map(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; result: { protocolVersion?: string; content: Array<{ text: string }>; structuredContent: unknown } })
        .map((a) => [a.id, a.result]),
    );
    expect(answers.get(1)?.protocolVersion).toBe('2025-03-26');
    expect(answers.get(2)?.content).toEqual([{ type: 'text', text: `Canvas-Base: ${revision}\n${xml}` }]);
    expect(answers.get(2)?.structuredContent).toEqual({ ledger: 'old', revision, xml });
    expect(JSON.parse(answers.get(3)!.content[0]!.text)).toEqual(answers.get(3)?.structuredContent);
  });
});
