import type { Command } from 'commander';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register list (docs/cli.md, "list"). */
export function registerListCommand(program: Command): void {
  withGlobal(program.command('list'))
    .description('every canvas: revision, summary, last edit, questions, ending, and the last write by a run')
    .option('--unwritten-by-runs', 'only the canvases no run ever wrote to (the sweep\'s "canvas never written by any run")')
    .addHelpText('after', ['', 'A write is by a run when its author has a run: part ("planner | step:plan | run:r7"); docs/store.md, "Runs".'].join('\n'))
    .action(async (o: GlobalOptions & { unwrittenByRuns?: boolean }) => {
      const { listCanvasEntries } = await import('../../store/read/list-canvas-entries.js');
      const list = await listCanvasEntries(workspaceOf(o), { unwrittenByRuns: o.unwrittenByRuns });
      if (o.json) {
        printJson(list);
        return;
      }
      if (list.canvases.length === 0) {
        process.stdout.write(o.unwrittenByRuns ? 'Every canvas was written by a run.\n' : 'There is no canvas in this workspace yet.\n');
        return;
      }
      const { listLines } = await import('../list-lines.js');
      process.stdout.write(listLines(list));
    });
}
