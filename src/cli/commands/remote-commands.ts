import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register `canvas remote set <url>`, `canvas remote show`, `canvas remote unset` and `canvas sync` (docs/remote.md). */
export function registerRemoteCommands(program: Command): void {
  withGlobal(program.command('remote'))
    .description("set, show or unset the workspace's shared git remote, which every write is pushed to (docs/remote.md)")
    .argument('<action>', 'set (then the URL), show, or unset (also: remove)')
    .argument('[url]', 'for set: git://, ssh://, http(s)://, file://, user@host:path, or the path of a bare repository')
    .action(async (action: string, url: string | undefined, o: GlobalOptions) => {
      const remote = await import('../../store/remote/set-remote.js');
      const ws = workspaceOf(o);
      if (action === 'set' && url !== undefined) {
        const set = await remote.setRemote(ws, url);
        if (o.json) printJson({ url: set });
        else process.stdout.write(`remote: ${set}\nnext: canvas sync\n`);
        return;
      }
      if (action === 'set') {
        throw new CanvasError('USAGE', 'canvas remote set needs the URL or path of the shared remote', 'canvas remote set <url>, for example canvas remote set git@example.com:team/work.git');
      }
      if ((action === 'unset' || action === 'remove') && url === undefined) {
        const was = await remote.unsetRemote(ws);
        if (o.json) printJson({ url: was });
        else process.stdout.write(`unset the remote ${was}: writes here are local only now\n`);
        return;
      }
      if (action !== 'show' || url !== undefined) {
        throw new CanvasError(
          'USAGE',
          `canvas remote takes "set <url>", "show" or "unset", not "${[action, url].filter(Boolean).join(' ')}"`,
          'canvas remote set <url>, canvas remote show, or canvas remote unset',
        );
      }
      const report = await remote.showRemote(ws);
      if (o.json) printJson(report);
      else process.stdout.write(`remote: ${report.url}\nmain: ${report.main ?? '(not fetched yet)'}\n`);
    });
  withGlobal(program.command('sync'))
    .description('fetch the shared remote and bring this workspace and the remote to one state (docs/remote.md, "Sync")')
    .action(async (o: GlobalOptions) => {
      const { syncWorkspace } = await import('../../store/remote/sync-workspace.js');
      const report = await syncWorkspace(workspaceOf(o));
      if (o.json) printJson(report);
      else {
        const did = report.followed ? 'followed the remote' : report.pushed ? 'pushed to the remote' : 'already in step';
        process.stdout.write(`synced with ${report.url}: ${did}; main ${report.main?.slice(0, 12) ?? '(empty)'}\n`);
      }
    });
}
