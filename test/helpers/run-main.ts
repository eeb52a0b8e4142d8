import { main } from '../../src/cli/main.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { AUTHOR, type CliResult } from './workspace.js';

/**
 * Run the CLI's entry (`main`) in this process, as {@link runCli} runs the built CLI: the same
 * parsing, the same single catch and exit code mapping, what it prints to stdout and stderr
 * captured, with CANVAS_WORKSPACE, CANVAS_AUTHOR (default {@link AUTHOR}) and NO_COLOR set for
 * the call and put back after. No standard input. Calls must not overlap (they share
 * `process.stdout`, `process.env` and `process.exitCode`); tests in one file run one at a time.
 *
 * @param ws - the workspace (passed as CANVAS_WORKSPACE)
 * @param args - the arguments after `canvas`
 * @param env - extra environment for the call; an empty string unsets the variable
 */
export async function runMain(ws: Workspace | null, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const vars: Record<string, string> = { ...(ws ? { CANVAS_WORKSPACE: ws.root } : {}), CANVAS_AUTHOR: AUTHOR, NO_COLOR: '1', ...env };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === '') delete process.env[k];
    else process.env[k] = v;
  }
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  // A command that waits for its output to be written (the inbox, before it acknowledges) is
  // called back, as by a real stream.
  process.stdout.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = undefined;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
