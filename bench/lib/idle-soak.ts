// A soak of the long-lived git helpers across their idle period (docs/store.md, "Long-lived git
// processes"): one `canvas mcp` server driven through the MCP SDK's client and one library loop
// in this process write to one canvas, each pausing between writes for intervals spread from 0
// to three idle periods, half of them within a tenth of an idle period of the boundary. Every
// write must be applied (or be a real conflict); anything else is an error. Used by the test
// (`test/store/git/idle-soak.test.ts`, a short idle period) and by `bench/idle-soak.ts` (the default).
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../src/store/write/node-writes.js';
import type { Outcome } from '../../src/store/repo/outcome.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { rng } from './random.js';

/** What {@link idleSoak} needs. */
export interface SoakOptions {
  /** An empty workspace. */
  ws: Workspace;
  /** The project root (its `bin/canvas.js` is the server). */
  root: string;
  /** The idle period both processes run with, in milliseconds (`CANVAS_GIT_IDLE_MS`). */
  idleMs: number;
  /** Writes per writer (two writers). */
  writes: number;
  /** Seed of the pauses. */
  seed?: number;
}

/** What happened: every applied revision, conflicts, and every other result as an error. */
export interface SoakReport {
  applied: string[];
  conflicts: number;
  errors: string[];
  /** The pauses used, in milliseconds, and how many were within a tenth of the idle period of it. */
  pauses: number;
  nearBoundary: number;
}

/**
 * The pauses of one writer: a quarter short (0 to half an idle period), half at the boundary
 * (within a tenth of it), a quarter long (one to three idle periods).
 */
export function soakPauses(count: number, idle: number, seed: number): number[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => {
    const kind = r();
    if (kind < 0.25) return r() * idle * 0.5;
    if (kind < 0.75) return idle * (0.9 + r() * 0.2);
    return idle * (1 + r() * 2);
  });
}

/** Run the soak; the caller asserts on the report. */
export async function idleSoak(o: SoakOptions): Promise<SoakReport> {
  const before = process.env.CANVAS_GIT_IDLE_MS;
  process.env.CANVAS_GIT_IDLE_MS = String(o.idleMs);
  const report: SoakReport = { applied: [], conflicts: 0, errors: [], pauses: 0, nearBoundary: 0 };
  const seed = o.seed ?? 7;
  const note = (who: string, i: number, out: Outcome | { error: string }) => {
    if ('error' in out) report.errors.push(`${who} write ${i}: ${out.error}`);
    else if (out.outcome === 'applied') report.applied.push(out.revision);
    else if (out.outcome === 'conflict') report.conflicts += 1;
    else report.errors.push(`${who} write ${i}: ${JSON.stringify(out)}`);
    return out;
  };
  const client = new Client({ name: 'canvas-soak', version: '0.0.0' });
  try {
    const { ws } = o;
    await createCanvas(ws, { ledger: 'soak', why: 'a canvas for the soak', author: 'leo' });
    await grantRole(ws, { ledger: 'soak', who: 'eve', role: 'editor', why: 'eve writes through the server', author: 'leo' });
    let base = (await readCanvasText(ws, { ledger: 'soak' })).revision;
    const mine = (await insertNode(ws, { ledger: 'soak', into: 'root', payload: { text: 'lib 0' }, base, why: 'the library loop writes here', author: 'leo' })) as {
      node: string;
      revision: string;
    };
    const theirs = (await insertNode(ws, { ledger: 'soak', into: 'root', payload: { text: 'mcp 0' }, base: mine.revision, why: 'the server writes here', author: 'leo' })) as {
      node: string;
      revision: string;
    };
    base = theirs.revision;
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(o.root, 'bin', 'canvas.js'), 'mcp', '--as', 'eve', '--workspace', ws.root],
        env: { ...(process.env as Record<string, string>) },
        stderr: 'pipe',
      }),
    );
    const near = (p: number) => Math.abs(p - o.idleMs) <= o.idleMs * 0.1;
    const library = async () => {
      let at = base;
      const pauses = soakPauses(o.writes, o.idleMs, seed);
      for (let i = 0; i < o.writes; i += 1) {
        await sleep(pauses[i]!);
        report.pauses += 1;
        if (near(pauses[i]!)) report.nearBoundary += 1;
        try {
          if (i % 5 === 0) await readCanvasText(ws, { ledger: 'soak' });
          const out = note('library', i, await replaceNode(ws, { ledger: 'soak', node: mine.node, base: at, payload: { text: `lib ${i + 1}` }, why: `library write ${i}`, author: 'leo' }));
          if ('revision' in out && out.outcome === 'applied') at = out.revision;
        } catch (e) {
          note('library', i, { error: String((e as Error).stack ?? e) });
        }
      }
    };
    const server = async () => {
      let at = base;
      const pauses = soakPauses(o.writes, o.idleMs, seed + 1);
      for (let i = 0; i < o.writes; i += 1) {
        await sleep(pauses[i]!);
        report.pauses += 1;
        if (near(pauses[i]!)) report.nearBoundary += 1;
        try {
          // Every fifth round the read and the write go out together, unawaited, as a client may
          // send them: the server holds the write until the read is answered (docs/mcp.md,
          // "Order of calls"), across the helpers' idle period like everything else.
          const read = i % 5 === 0 ? client.callTool({ name: 'canvas_read', arguments: { workspace: ws.root, ledger: 'soak' } }) : null;
          const r = await client.callTool({
            name: 'canvas_replace',
            arguments: { workspace: ws.root, ledger: 'soak', node: theirs.node, base: at, text: `mcp ${i + 1}`, why: `server write ${i}` },
          });
          if ((await read)?.isError === true) note('server', i, { error: 'canvas_read answered isError' });
          if (r.isError === true) {
            note('server', i, { error: `isError: ${(r.content as Array<{ text: string }>)[0]?.text ?? ''}` });
            continue;
          }
          // The answer is its structured content alone (docs/mcp.md, "Results").
          const json = r.structuredContent as Outcome | { error: { code: string } };
          const out = note('server', i, 'error' in json ? { error: JSON.stringify(json) } : json);
          if ('revision' in out && out.outcome === 'applied') at = out.revision;
        } catch (e) {
          note('server', i, { error: String((e as Error).stack ?? e) });
        }
      }
    };
    await Promise.all([library(), server()]);
    return report;
  } finally {
    await client.close();
    if (before === undefined) delete process.env.CANVAS_GIT_IDLE_MS;
    else process.env.CANVAS_GIT_IDLE_MS = before;
  }
}
