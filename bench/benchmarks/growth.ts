// How each cost grows with its input: an edit, a read and a node's history, along three axes
// (nodes per canvas, canvases per workspace, commits in the repository).
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { type BenchContext, cliCommand, cliEnv, copyWorkspace } from '../lib/context.js';
import { editText } from '../lib/edit-loop.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { repeat, type Stats, timeProcess } from '../lib/measure.js';
import { growthFamilies } from '../lib/workspaces.js';

/** One row of the growth table. */
export interface GrowthRow {
  axis: string;
  value: number;
  /** The canvas measured: its nodes and its own commits. */
  nodes: number;
  canvasCommits: number;
  repoCommits: number;
  canvases: number;
  /** Milliseconds: the library's replace, `canvas read`, `canvas history`. */
  edit: Stats;
  read: Stats;
  history: Stats;
  generateSeconds: number;
}

/** Measure every family's points. */
export async function growth(ctx: BenchContext): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  // A quick run measures each point once and warms nothing up: it shows the table is made; how a
  // cost grows, and what it is, are a full run's figures.
  const runs = ctx.quick ? 1 : 10;
  const warm = (full: number) => (ctx.quick ? 0 : full);
  const [node, pre] = cliCommand(ctx);
  for (const family of growthFamilies(ctx.quick)) {
    for (const point of family.points) {
      const gen = await generateWorkspace(point.spec, ctx.root, ctx.log);
      const ledger = point.ledger;
      const ws = copyWorkspace(ctx, gen.ws, 'growth');
      const env = cliEnv(ws, GEN_AUTHOR);
      const read = await readCanvas(ws, { ledger });
      const blocks = [...read.canvas.children].filter((n) => n.type !== 'section').map((n) => n.id);
      let revision = read.revision;
      const edit = await repeat(runs, warm(2), async (i) => {
        const t0 = performance.now();
        const o = await replaceNode(ws, {
          ledger,
          node: blocks[i % blocks.length]!,
          base: revision,
          payload: { text: editText(i) },
          why: 'measuring how an edit grows',
          author: GEN_AUTHOR,
        });
        const ms = performance.now() - t0;
        if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
        revision = o.revision;
        return ms;
      });
      const readStats = await repeat(runs, warm(1), () => timeProcess(node, [...pre, 'read', ledger], { env }).ms);
      const first = gen.nodes[ledger]![0]!;
      const history = await repeat(runs, warm(1), () => timeProcess(node, [...pre, 'history', ledger, first], { env }).ms);
      rows.push({
        axis: family.axis,
        value: point.value,
        nodes: gen.nodes[ledger]!.length,
        canvasCommits: gen.commitsOf[ledger]!,
        repoCommits: point.spec.commits,
        canvases: gen.ledgers.length,
        edit,
        read: readStats,
        history,
        generateSeconds: gen.seconds,
      });
      ctx.log(`  growth ${family.axis} = ${point.value}: edit ${edit.median.toFixed(1)} ms, read ${readStats.median.toFixed(1)} ms, history ${history.median.toFixed(1)} ms`);
    }
  }
  return rows;
}
