import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';
import { stopOnSignal } from '../stop-on-signal.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function portOf(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new CanvasError('USAGE', `--port ${value} is not a port (0 to 65535)`, 'pass --port 4173, or --port 0 for any free port');
  return n;
}

/** `--sync-every <seconds>`: a whole number of seconds, 0 (never) to 86400 (a day). */
function secondsOf(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 86_400) {
    throw new CanvasError('USAGE', `--sync-every ${value} is not a number of seconds (0 to 86400)`, 'pass --sync-every 10, or --sync-every 0 to sync only when a write does');
  }
  return n;
}

/** Open the URL in the desktop's browser, if there is one; a failure to open is not the server's. */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`canvas serve: could not run ${opener}; open the URL yourself\n`));
  child.unref();
}

/** Register `canvas serve [--host H] [--port P] [--open] [--sync-every S]` (docs/serve.md). */
export function registerServeCommand(program: Command): void {
  withGlobal(program.command('serve'))
    .description('serve the live canvas tab: every page of canvas build, updated as the canvas moves, editable through the store’s verbs')
    .option('--host <address>', 'the address to listen on; anything but 127.0.0.1 is explicit and warned about', '127.0.0.1')
    .option('--port <port>', 'the port (0 for any free one)', '4173')
    .option('--open', 'open the URL in the desktop browser')
    .option('--sync-every <seconds>', 'with a shared remote (canvas remote set), sync with it this often, so other machines’ changes reach the pages; 0: never', '10')
    .addHelpText(
      'after',
      [
        '',
        'Prints the URL once, with the server’s secret in it; the page exchanges it for an HttpOnly cookie.',
        'Browser edits are authored as --author (else $CANVAS_AUTHOR); without one the pages only read.',
        'With a shared remote it syncs every --sync-every seconds (docs/serve.md, "A shared remote").',
        'Runs until interrupted (Ctrl-C). docs/serve.md.',
        '',
        'Examples:',
        '  canvas serve --author "leo | by-hand"',
        '  canvas serve --port 0 --json          # {"url":...,"origin":...,"port":...} on one line',
        '  canvas serve --sync-every 30          # with a shared remote: fetch other machines’ changes every 30 s',
      ].join('\n'),
    )
    .action(async (o: GlobalOptions & { host: string; port: string; open?: boolean; syncEvery: string }) => {
      const ws = workspaceOf(o);
      const port = portOf(o.port);
      const syncEveryMs = secondsOf(o.syncEvery) * 1000;
      // Lazy: the HTTP framework and the renderers load for this command only.
      const [{ serveCanvas }, { createMcpHttp }] = await Promise.all([import('../../serve/serve-canvas.js'), import('../../mcp/mcp-http.js')]);
      const author = o.author ?? process.env.CANVAS_AUTHOR ?? null;
      const mcp = await createMcpHttp(ws);
      const server = await serveCanvas(ws, { host: o.host, port, author: author === '' ? null : author, syncEveryMs, mcp });
      if (!LOOPBACK.has(o.host)) {
        process.stderr.write(`canvas serve: warning: listening on ${o.host}, not 127.0.0.1: anyone who can reach it and holds the URL can edit as ${author ?? 'nobody'}\n`);
      }
      if (author === null || author === '') process.stderr.write('canvas serve: no --author and no CANVAS_AUTHOR: the pages only read\n');
      if (o.json) printJson({ url: server.url, origin: server.origin, port: server.port });
      else process.stdout.write(`canvas serve: ${server.url}\n`);
      if (o.open) openBrowser(server.url);
      // SIGTERM or SIGINT: the writes under way answer, new ones are refused, then the server
      // ends (docs/serve.md, "Stopping"); a second signal ends it at once.
      await new Promise<void>((resolve) => stopOnSignal('canvas serve', 'answering the writes under way, refusing new ones', resolve));
      await server.close();
    });
}
