import { EXIT_CODES } from '../model/canvas-error.js';
import { main } from './main.js';
import { guardSignals } from './signal-guard.js';
import { deferStdio } from './write-stdout.js';

/**
 * Run the `canvas` command as a process of its own (src/cli/canvas.ts): its standard streams, its
 * signals and its exit code, around {@link main}.
 *
 * @param argv - the arguments after `canvas`
 */
export function runCanvas(argv: string[]): void {
  // A reader that stops early (`canvas read x | head -1`) closes the pipe: that is not an error.
  // Each stream gets the handler when something first uses it (src/cli/write-stdout.ts).
  deferStdio((stream) => {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_CODES.ok);
      throw e;
    });
  });
  // A one-shot command holds SIGINT and SIGTERM while a write's outcome is on its way (docs/cli.md,
  // "Signals"); the MCP server and `canvas serve` drain their own writes on SIGTERM.
  const guard = argv[0] === 'mcp' || argv[0] === 'serve' ? null : guardSignals(argv.includes('--json'));
  main(argv).then((code) => {
    process.exitCode = code;
    guard?.finished(code);
  });
}
