import type { Command } from 'commander';
import { withGlobal } from '../common-options.js';
import { authorOf, type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';
import { show } from '../show.js';

/** Register watch, unwatch (docs/cli.md, "watch") and inbox (docs/cli.md, "inbox"). */
export function registerWatchCommands(program: Command): void {
  withGlobal(program.command('watch'))
    .description("watch a canvas: its later changes reach the author's inbox (canvas inbox)")
    .argument('<ledger>', 'the canvas')
    .action(async (ledger: string, o: GlobalOptions) => {
      const { watchCanvas } = await import('../../store/watch/watch-canvas.js');
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
      const { unwatchCanvas } = await import('../../store/watch/watch-canvas.js');
      const r = await unwatchCanvas(workspaceOf(o), { ledger, author: authorOf(o) });
      if (o.json) {
        printJson(r);
        return;
      }
      process.stdout.write(`${r.who} no longer watches ${r.ledger}\n`);
    });

  withGlobal(program.command('inbox'))
    .description("the author's inbox: every change on the canvases they watch since they last acknowledged, oldest first")
    .option('--ack', 'then mark what was printed as read: each cursor moves to the revision shown, not past what arrived since')
    .addHelpText('after', ['', "The author's own changes are not shown. Proposals waiting for their decision (editor or owner) stay until decided."].join('\n'))
    .action(async (o: GlobalOptions & { ack?: boolean }) => {
      const ws = workspaceOf(o);
      const author = authorOf(o);
      const { readInbox } = await import('../../store/read/read-inbox.js');
      const inbox = await readInbox(ws, { author });
      if (o.json) await show(`${JSON.stringify(inbox)}\n`);
      else {
        const { inboxLines } = await import('../inbox-lines.js');
        await show(inboxLines(inbox, o.ack === true));
      }
      if (!o.ack) return;
      // Only once the inbox is printed: a run stopped before this point leaves every cursor as it was.
      const { ackInbox } = await import('../../store/watch/ack-inbox.js');
      await ackInbox(ws, { author, cursors: Object.fromEntries(inbox.canvases.map((c) => [c.ledger, c.revision])) });
    });
}
