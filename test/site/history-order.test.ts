// The order the build hands canvases to the pool (docs/site.md, "How the build reads"): newest
// revision first, so git builds each root tree from the one it built before.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEN_AUTHOR, generateWorkspace } from '../../bench/lib/generate-workspace.js';
import { indexNodes } from '../../src/model/index-nodes.js';
import { inHistoryOrder } from '../../src/site/history-order.js';
import { listCanvases } from '../../src/store/repo/list-canvases.js';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { resolveWorkspace } from '../../src/store/repo/workspace.js';
import { ROOT } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('inHistoryOrder', () => {
  it('puts the canvases edited last first, newest revision first, whatever order they are given in', async () => {
    const gen = await generateWorkspace({ canvases: 6, commits: 40, minNodes: 3, maxNodes: 5, bigNodes: 0, seed: 31 }, ROOT, undefined, tempDir('canvas-gen-cache-'));
    const root = join(tempDir('canvas-order-'), 'ws');
    cpSync(gen.ws.root, root, { recursive: true });
    const ws = resolveWorkspace({ workspace: root });
    // The tests' commits share one fixed date; these edits are dated after every generated
    // commit, a day apart, in an order that is neither the ledgers' nor its reverse.
    const edited = [gen.ledgers[2]!, gen.ledgers[0]!, gen.ledgers[4]!];
    const fixed = process.env.GIT_COMMITTER_DATE;
    try {
      for (const [day, ledger] of edited.entries()) {
        process.env.GIT_COMMITTER_DATE = `2027-01-0${day + 1}T00:00:00Z`;
        const read = await readCanvas(ws, { ledger });
        const node = [...indexNodes(read.canvas).values()].find((e) => e.node.type !== 'section')!.node.id;
        const o = await replaceNode(ws, { ledger, node, base: read.revision, payload: { text: `edited on day ${day + 1}` }, why: 'an edit after every other', author: GEN_AUTHOR });
        expect(o.outcome).toBe('applied');
      }
    } finally {
      process.env.GIT_COMMITTER_DATE = fixed;
    }
    const refs = await listCanvases(ws);
    const time = (rev: string) => Number(execFileSync('git', ['show', '-s', '--format=%ct', rev], { cwd: ws.repo, encoding: 'utf8' }).trim());
    for (const given of [refs, [...refs].reverse()]) {
      const ordered = await inHistoryOrder(ws, given);
      expect(ordered.map((c) => c.ledger).sort()).toEqual(refs.map((c) => c.ledger));
      expect(ordered.slice(0, 3).map((c) => c.ledger)).toEqual([...edited].reverse());
      const times = ordered.map((c) => time(c.revision));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
  });
});
