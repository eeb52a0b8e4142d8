/**
 * `--quiet` (docs/cli.md, "Every command"): only errors. While a quiet command runs, what it writes to
 * standard output is dropped, so every command has the flag without each one checking it; an
 * error, a rejection or a conflict is still reported ({@link writeAlways}), and notices on
 * standard error (a progress bar, a repaired ref) are not written ({@link isQuiet}). A command
 * whose standard output is a protocol (`canvas mcp`) keeps it: there the flag drops notices only.
 */

/** The `process.stdout.write` a quiet run replaced, or null when the run is not quiet. */
let replaced: typeof process.stdout.write | null = null;
/** Whether notices are dropped. */
let quiet = false;

/**
 * Start a quiet run: drop standard output (unless `keepStdout`) and notices until the returned
 * function is called.
 *
 * @param keepStdout - the command's standard output is a protocol, not messages
 * @returns the function that ends the quiet run, putting standard output back
 */
export function startQuiet(keepStdout: boolean): () => void {
  quiet = true;
  if (!keepStdout && replaced === null) {
    const write = process.stdout.write;
    replaced = write;
    process.stdout.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') process.nextTick(done as () => void);
      return true;
    }) as typeof process.stdout.write;
  }
  return () => {
    quiet = false;
    if (replaced !== null) process.stdout.write = replaced;
    replaced = null;
  };
}

/** Whether this run is quiet: a notice (not an error) is then not written. */
export function isQuiet(): boolean {
  return quiet;
}

/** Write to standard output even in a quiet run: an error or refusal asked for as JSON. */
export function writeAlways(text: string): void {
  if (replaced !== null) replaced.call(process.stdout, text);
  else process.stdout.write(text);
}
