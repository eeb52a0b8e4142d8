// A `git daemon` on 127.0.0.1 for the shared-remote tests and benchmarks (docs/remote.md).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A `git daemon` serving the bare repositories of one directory on 127.0.0.1, pushes allowed. */
export interface GitDaemon {
  /** `git://127.0.0.1:<port>/<name>` */
  url(name: string): string;
  /** Stop serving (the port stays this daemon's: {@link GitDaemon.start} serves on it again). */
  stop(): Promise<void>;
  /** Serve again after a stop, on the same port. */
  start(): Promise<void>;
}

/** A port on 127.0.0.1 nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Start `git daemon --export-all --enable=receive-pack` on 127.0.0.1 for the bare repositories
 * under `base`, and wait until it answers `git ls-remote` for `probe` (a bare repository there).
 */
export async function startGitDaemon(base: string, probe: string): Promise<GitDaemon> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const url = (name: string) => `git://127.0.0.1:${port}/${name}`;
  const start = async () => {
    child = spawn('git', ['daemon', '--reuseaddr', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${base}`, '--export-all', '--enable=receive-pack', '--informative-errors', base], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 200; i++) {
      try {
        execFileSync('git', ['ls-remote', url(probe)], { stdio: 'ignore', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    throw new Error(`git daemon did not answer on port ${port}`);
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  await start();
  return { url, stop, start };
}
