import type { Command } from 'commander';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register desk (docs/site.md, "The desk"). */
export function registerDeskCommand(program: Command): void {
  withGlobal(program.command('desk'))
    .description('what waits for a person: every open question (oldest first) and every proposal waiting for a decision, across the canvases')
    .action(async (o: GlobalOptions) => {
      const { readDesk } = await import('../../store/read/read-desk.js');
      const desk = await readDesk(workspaceOf(o));
      if (o.json) {
        printJson(desk);
        return;
      }
      const { deskLines } = await import('../desk-lines.js');
      process.stdout.write(deskLines(desk));
    });
}
