// The order of one connection's calls (docs/mcp.md, "Order of calls"), with a real SDK client
// that sends a call and the next without waiting for the first answer: the second sees what the
// first did, and is answered after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

describe('calls sent without waiting', () => {
  let ws: Workspace;
  let ana: McpSession;
  let revision: string;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-order-');
    await createCanvas(ws, { ledger: 'o1', why: 'a canvas to watch', author: 'leo' });
    await createCanvas(ws, { ledger: 'o2', why: 'a canvas to write', author: 'leo' });
    await grantRole(ws, { ledger: 'o1', who: 'ana', role: 'viewer', why: 'ana follows it', author: 'leo' });
    revision = ((await grantRole(ws, { ledger: 'o2', who: 'ana', role: 'editor', why: 'ana writes it', author: 'leo' })) as Applied).revision;
    ana = await connectAs(ws, 'ana');
  });

  afterAll(async () => {
    await ana.close();
  });

  /**
   * Send the calls at once, in this order (the client numbers them so), and say the order their
   * answers came in, as the ids read off the client's transport.
   */
  async function sent<T extends unknown[]>(...calls: { [K in keyof T]: () => Promise<T[K]> }): Promise<{ answers: T; order: number[] }> {
    const transport = ana.client.transport!;
    const ids: number[] = [];
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('id' in message && !('method' in message)) ids.push(Number(message.id));
      onmessage?.(message, extra);
    };
    try {
      const answers = (await Promise.all(calls.map((c) => c()))) as T;
      const first = Math.min(...ids);
      return { answers, order: ids.map((id) => id - first) };
    } finally {
      transport.onmessage = onmessage;
    }
  }

  it('a canvas_inbox sent right after a canvas_watch sees the watch', async () => {
    const { answers, order } = await sent(
      () => ana.call('canvas_watch', { workspace: ws.root, ledger: 'o1' }),
      () => ana.call('canvas_inbox', { workspace: ws.root }),
    );
    expect(answers[0].isError, answers[0].text).toBe(false);
    const canvases = (answers[1].structured as { canvases: { ledger: string }[] }).canvases;
    expect(canvases.map((c) => c.ledger)).toEqual(['o1']);
    expect(order).toEqual([0, 1]);
  });

  it('a canvas_read sent right after a write reads what it wrote, and an unwatch undoes a watch sent before it', async () => {
    const { answers, order } = await sent(
      () => ana.write('canvas_insert', { workspace: ws.root, ledger: 'o2', into: 'root', text: 'Written first.', base: revision, why: 'a note' }),
      () => ana.read('o2'),
      () => ana.call('canvas_unwatch', { workspace: ws.root, ledger: 'o1' }),
      () => ana.call('canvas_inbox', { workspace: ws.root }),
    );
    const written = answers[0] as Applied;
    expect(written.outcome).toBe('applied');
    expect(answers[1].base).toBe(written.revision);
    expect(answers[1].xml).toContain('Written first.');
    const canvases = (answers[3].structured as { canvases: { ledger: string }[] }).canvases;
    expect(canvases.map((c) => c.ledger)).toEqual(['o2']);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});
