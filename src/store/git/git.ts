import { spawn } from 'node:child_process';
import { CanvasError } from '../../model/canvas-error.js';
import { maskCredentials } from '../../model/mask-credentials.js';
import { noSpace } from '../files/no-space.js';

/** The result of one git process. */
export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Options of {@link runGit}. */
export interface GitOptions {
  /** Bytes for standard input. */
  input?: string | Buffer;
  /** Variables added to the store's git environment (author identity, index file). */
  env?: Record<string, string>;
  /** Return a non-zero exit instead of throwing `GIT_FAILED`. */
  allowFail?: boolean;
}

/**
 * The credential helper of `CANVAS_REMOTE_TOKEN` (docs/remote.md, "Credentials"): asked for a
 * credential (`get`), it answers with `CANVAS_REMOTE_USER` (default `x-access-token`, which
 * hosted git servers take beside a token) and the token, both read from its environment; asked to
 * store or erase one, it does nothing.
 */
const TOKEN_HELPER = '!f() { test "$1" = get || return 0; echo "username=$CANVAS_REMOTE_USER"; echo "password=$CANVAS_REMOTE_TOKEN"; }; f';

/**
 * The store's git environment (docs/store.md "Git's environment"): every `GIT_*` variable of the caller is
 * cleared except the two dates (kept for tests), global and system config are ignored, objects
 * are read as they are (no replace refs: git would answer a read of a blob with another's bytes
 * under the first one's name, and a plain read trusts a blob's name), and messages are in the C
 * locale.
 */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') && k !== 'GIT_AUTHOR_DATE' && k !== 'GIT_COMMITTER_DATE') continue;
    env[k] = v;
  }
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  // Never a prompt (docs/remote.md, "Credentials"): no terminal, no askpass program; a missing
  // or wrong credential fails at once, as REMOTE_AUTH.
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = '';
  env.SSH_ASKPASS_REQUIRE = 'never';
  // A token in the environment answers git's credential question, read by the helper when git
  // asks: never in an argument, a URL or a file.
  if (process.env.CANVAS_REMOTE_TOKEN) {
    env.CANVAS_REMOTE_USER = process.env.CANVAS_REMOTE_USER || 'x-access-token';
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'credential.helper';
    env.GIT_CONFIG_VALUE_0 = TOKEN_HELPER;
  }
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GIT_NO_REPLACE_OBJECTS = '1';
  env.LC_ALL = 'C';
  return { ...env, ...extra };
}

/**
 * Configuration every git call gets: hooks and signing off, no line-end conversion, and every
 * ref update logged in its reflog, `refs/canvas/*` included (docs/store.md, "Verify").
 */
export function gitConfigArgs(repo: string): string[] {
  return [
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'commit.gpgSign=false',
    '-c',
    'core.autocrlf=false',
    '-c',
    'core.fsmonitor=false',
    '-c',
    'gc.autoDetach=false',
    '-c',
    'core.logAllRefUpdates=always',
    '-c',
    `safe.directory=${repo}`,
  ];
}

/**
 * Run one git command in a repository with the store's environment.
 *
 * @param repo - the repository's work tree (state/canvas)
 * @param args - git arguments, for example `['update-ref', '--stdin']`
 * @param options - input, extra environment, allowFail
 * @returns stdout, stderr and the exit code
 * @throws CanvasError `GIT_FAILED` when git exits non-zero (unless allowFail) or cannot start;
 *   `NO_SPACE` when it failed for lack of space
 */
export function runGit(repo: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...gitConfigArgs(repo), ...args], {
      cwd: repo,
      env: gitEnvironment(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      // A process group of its own: the terminal's Ctrl-C reaches the command, which decides,
      // never git in the middle of a push or a ref update (docs/store.md, "Signals and the steps
      // of a write").
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      reject(new CanvasError('GIT_FAILED', `could not run git: ${e.message}`, 'install git and put it on PATH', { args: args.map(maskCredentials) }));
    });
    child.on('close', (code) => {
      const result = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code: code ?? 1 };
      if (result.code !== 0 && !options.allowFail) {
        const full = noSpace(result.stderr);
        if (full) {
          reject(full);
          return;
        }
        // A URL's credentials are never repeated (docs/remote.md, "Credentials").
        reject(
          new CanvasError('GIT_FAILED', `git ${args[0]} failed: ${maskCredentials(result.stderr.trim()) || `exit ${result.code}`}`, 'run `canvas verify` to check the repository', {
            args: args.map(maskCredentials),
            code: result.code,
          }),
        );
        return;
      }
      resolve(result);
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
