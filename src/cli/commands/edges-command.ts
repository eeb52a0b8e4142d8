import type { Command } from 'commander';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register `canvas edges <ledger>` (docs/links.md, "Edges"). */
export function registerEdgesCommand(program: Command): void {
  withGlobal(program.command('edges'))
    .description('what a canvas links to, what links to it, who acted on it and who watches it')
    .argument('<ledger>', 'the canvas')
    .action(async (ledger: string, o: GlobalOptions) => {
      const { canvasEdges } = await import('../../store/read/canvas-edges.js');
      const edges = await canvasEdges(workspaceOf(o), ledger);
      if (o.json) {
        printJson(edges);
        return;
      }
      const { edgesLines } = await import('../edges-lines.js');
      process.stdout.write(edgesLines(edges));
    });
}
