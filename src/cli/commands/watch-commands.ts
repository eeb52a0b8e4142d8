import type { Command } from 'commander';
import { withGlobal } from '../common-options.js';
import { authorOf, type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register watch and unwatch (docs/cli.md, "watch"). */
export function registerWatchCommands(program: Command): void {
  withGlobal(program.command('watch'))
    .description("watch a canvas: its later changes reach the author's inbox (canvas inbox)")
    .argument('<ledger>', 'the canvas')
    .action(async (ledger: string, o: GlobalOptions) => {
      const { watchCanvas } = await import('../../store/watch-canvas.js');
      const r = await watchCanvas(workspaceOf(o), { ledger, author: authorOf(o) });
      if (o.json) {
        printJson(r);
        return;
      }
      process.stdout.write(r.changed ? `${r.who} watches ${r.ledger} from now on\n` : `${r.who} already watches ${r.ledger}: nothing changed\n`);
    });

  withGlobal(program.command('unwatch'))
    .description("stop watching a canvas: its changes no longer reach the author's inbox")
    .argument('<ledger>', 'the canvas')
    .action(async (ledger: string, o: GlobalOptions) => {
      const { unwatchCanvas } = await import('../../store/watch-canvas.js');
      const r = await unwatchCanvas(workspaceOf(o), { ledger, author: authorOf(o) });
      if (o.json) {
        printJson(r);
        return;
      }
      process.stdout.write(`${r.who} no longer watches ${r.ledger}\n`);
    });
}
