import { SIGNAL_EXIT } from './signal-guard.js';

/**
 * Stop a long-lived command (`canvas mcp`, `canvas serve`) in order on its first SIGINT or
 * SIGTERM, and at once on the next one (docs/mcp.md, "Stopping"; docs/serve.md, "Stopping"):
 * the first says on stderr that the command is stopping and calls `stop`, which lets the writes
 * under way answer and refuses new ones; any signal after it ends the process at once with 130
 * (SIGINT) or 143 (SIGTERM), as a shell reports a process that signal ended.
 *
 * @param command - the command's name as stderr shows it, for example `canvas serve`
 * @param what - what stopping does, said after `stopping: `
 * @param stop - called once, on the first signal
 */
export function stopOnSignal(command: string, what: string, stop: () => void): void {
  let stopping = false;
  const on = (signal: keyof typeof SIGNAL_EXIT) => {
    if (stopping) {
      process.stderr.write(`${command}: stopped at once by a second signal (${signal})\n`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    process.stderr.write(`${command}: stopping: ${what}\n`);
    stop();
  };
  process.on('SIGINT', () => on('SIGINT'));
  process.on('SIGTERM', () => on('SIGTERM'));
}
