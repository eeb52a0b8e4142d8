import { CanvasError, EXIT_CODES } from '../model/canvas-error.js';
import { onWriteStep } from '../store/repo/write-steps.js';
import { printError } from './output.js';
import { isQuiet } from './quiet.js';

/** The signals a command holds: a terminal's Ctrl-C and a runner's timeout. */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The exit code a signal stops a command with, as a shell reports a process it ended: 128 + its number. */
export const SIGNAL_EXIT: Readonly<Record<(typeof SIGNALS)[number], number>> = { SIGINT: EXIT_CODES.interrupted, SIGTERM: EXIT_CODES.terminated };

/** What {@link guardSignals} returns: the command's end, told to the guard. */
export interface SignalGuard {
  /** The command has written its output and ends with `code`: a signal from now on exits with it at once. */
  finished(code: number): void;
}

/**
 * Hold SIGINT and SIGTERM while a write's outcome is on its way to the caller (docs/cli.md,
 * "Signals"), for the whole life of a one-shot command:
 *
 * - before any write passed its point of no return (the store's `commit` step: docs/store.md,
 *   "Signals and the steps of a write"), a signal stops the command at once with 130 (SIGINT)
 *   or 143 (SIGTERM), and nothing is applied. A command that had started a write says so
 *   (`INTERRUPTED`, with `--json` as the error object);
 * - from the point of no return on, the first signal is held: the command finishes, prints the
 *   outcome and exits with that outcome's own code; a second one exits at once, saying whether
 *   the write was applied (0 when main already moved: the write is applied, only its printing
 *   was cut), or that git may still apply it (128 + the signal's number);
 * - once the command has written its output, a signal exits at once with the command's code.
 *
 * git runs in process groups of its own (src/store/git/git.ts), so a terminal's Ctrl-C reaches
 * this process alone. The MCP server and `canvas serve` handle SIGTERM themselves, and are not
 * guarded here.
 *
 * @param json - the command prints JSON (`--json`): an interruption is printed as the error object
 * @returns the guard, to be told when the command has finished
 */
export function guardSignals(json: boolean): SignalGuard {
  let writing: string | null = null;
  let committed: string | null = null;
  let applied: string | null = null;
  let held = false;
  let exitCode: number | null = null;
  onWriteStep((e) => {
    if (e.step === 'locked') writing = e.ledger;
    else if (e.step === 'commit') committed = e.revision ?? '';
    else if (e.step === 'moved') applied = e.revision ?? '';
  });
  const on = (signal: (typeof SIGNALS)[number]) => {
    if (exitCode !== null) process.exit(exitCode);
    const code = SIGNAL_EXIT[signal];
    if (committed === null) {
      if (writing !== null) {
        printError(
          new CanvasError('INTERRUPTED', `stopped by ${signal} before the write was applied: nothing was written`, `run the command again; \`canvas read ${writing}\` shows the canvas as it is`, {
            signal,
            applied: false,
          }),
          json,
        );
      }
      process.exit(code);
    }
    if (!held) {
      held = true;
      if (!isQuiet() && !json) process.stderr.write(`canvas: ${signal}: the write is being applied; its outcome follows (${signal} again to exit at once)\n`);
      return;
    }
    if (applied !== null) {
      process.stderr.write(`canvas: stopped by a second ${signal}: the write was applied as ${applied}; \`canvas read ${writing}\` shows it\n`);
      process.exit(EXIT_CODES.ok);
    }
    process.stderr.write(`canvas: stopped by a second ${signal} while git applied the write: it may have been applied; \`canvas read ${writing}\` shows whether\n`);
    process.exit(code);
  };
  for (const s of SIGNALS) process.on(s, () => on(s));
  return {
    finished(code) {
      exitCode = code;
    },
  };
}
