import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { tempDir } from './temp-dir.js';

/** The author the tests write as. */
export const AUTHOR = 'leo | by-hand';

/** The repository root of the project. */
export const ROOT = realpathSync(join(import.meta.dirname, '..', '..'));

/** A fresh, empty workspace in a temporary directory, removed after the test file ({@link tempDir}). */
export function tempWorkspace(prefix = 'canvas-test-'): Workspace {
  return resolveWorkspace({ workspace: tempDir(prefix) });
}

/** What a CLI run printed and its exit code. */
export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Run the built CLI (`bin/canvas.js`) in a workspace, as a user would.
 *
 * @param ws - the workspace (passed as CANVAS_WORKSPACE)
 * @param args - the arguments
 * @param env - extra environment (CANVAS_AUTHOR defaults to {@link AUTHOR})
 * @param input - what standard input holds (text, or raw bytes)
 * @param as - the user and group to run it as (a test running as root, as another user)
 */
export function runCli(ws: Workspace | null, args: string[], env: Record<string, string> = {}, input?: string | Buffer, as: { uid?: number; gid?: number } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'canvas.js'), ...args], {
    env: { ...process.env, ...(ws ? { CANVAS_WORKSPACE: ws.root } : {}), CANVAS_AUTHOR: AUTHOR, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...as,
  });
  return resultOf(child, input);
}

/**
 * What a spawned CLI prints and its exit code, once it has ended.
 *
 * @param child - the process, its three streams pipes
 * @param input - what standard input holds (text, or raw bytes); it is closed either way
 */
export function resultOf(child: ChildProcessWithoutNullStreams, input?: string | Buffer): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
    // A command that refuses its input part way (too large) exits without reading the rest.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** The `Canvas-Base:` sha a read printed. */
export function baseOf(stdout: string): string {
  const m = /^Canvas-Base: ([0-9a-f]{40})$/m.exec(stdout);
  if (!m) throw new Error(`no Canvas-Base line in:\n${stdout}`);
  return m[1]!;
}

function files(dir: string, root: string, out: Record<string, string>): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const rel = relative(root, p);
    if (rel === '.git') continue;
    if (statSync(p).isDirectory()) files(p, root, out);
    else out[rel] = readFileSync(p, 'utf8');
  }
}

/**
 * The state a refusal must leave untouched: every ref with its value, and every working file's
 * bytes (the repository's objects are content-addressed; a refusal writes none that a ref reaches).
 */
export function repoState(ws: Workspace): { refs: string; files: Record<string, string> } {
  let refs = '';
  try {
    refs = execFileSync('git', ['for-each-ref', '--format=%(refname) %(objectname)'], { cwd: ws.repo, encoding: 'utf8' });
  } catch {
    refs = '(no repository)';
  }
  const out: Record<string, string> = {};
  try {
    files(ws.repo, ws.repo, out);
  } catch {
    // no repository yet
  }
  return { refs, files: out };
}
