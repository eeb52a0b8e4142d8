import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register `canvas remote set <url>`, `canvas remote show` and `canvas sync` (docs/remote.md). */
export function registerRemoteCommands(program: Command): void {
  withGlobal(program.command('remote'))
    .description("set or show the workspace's shared git remote, which every write is pushed to (docs/remote.md)")
    .argument('<action>', 'set (then the URL) or show')
    .argument('[url]', 'for set: git://, ssh://, http(s)://, file://, user@host:path, or the path of a bare repository')
    .action(async (action: string, url: string | undefined, o: GlobalOptions) => {
      const { setRemote, showRemote } = await import('../../store/remote/set-remote.js');
      const ws = workspaceOf(o);
      if (action === 'set' && url !== undefined) {
        const set = await setRemote(ws, url);
        if (o.json) printJson({ url: set });
        else process.stdout.write(`remote: ${set}\nnext: canvas sync\n`);
        return;
      }
      if (action === 'set') {
        throw new CanvasError('USAGE', 'canvas remote set needs the URL or path of the shared remote', 'canvas remote set <url>, for example canvas remote set git@example.com:team/work.git');
      }
      if (action !== 'show' || url !== undefined) {
        throw new CanvasError('USAGE', `canvas remote takes "set <url>" or "show", not "${[action, url].filter(Boolean).join(' ')}"`, 'canvas remote set <url>, or canvas remote show');
      }
      const report = await showRemote(ws);
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
