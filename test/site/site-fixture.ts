import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { makeExampleWorkspace } from '../../scripts/example-workspace.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

let made: string | null = null;

/**
 * A fresh copy of the example workspace (made once per test process by the script `npm run demo`
 * uses, its CLI verbs run through the CLI's entry in process), so each test may change its copy.
 */
export async function exampleWorkspace(): Promise<Workspace> {
  if (made === null || !existsSync(made)) {
    const dir = join(tempDir('canvas-example-'), 'ws');
    await makeExampleWorkspace(dir, async (env, args) => {
      const r = await runMain(null, args, env);
      if (r.code !== 0) throw new Error(`canvas ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
      return r.stdout;
    });
    made = dir;
  }
  const copy = join(tempDir('canvas-site-'), 'ws');
  cpSync(made, copy, { recursive: true });
  return resolveWorkspace({ workspace: copy });
}

/** Every file under `dir`, by its path from `dir`, as text (latin1 by default, so any bytes compare exactly). */
export function siteTree(dir: string, encoding: 'latin1' | 'utf8' = 'latin1'): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, encoding);
    }
  };
  walk(dir);
  return out;
}

/**
 * A bare repository `DIR/shared.git` and a workspace whose writes push to it: canvas `first` with a
 * text node, then canvas `second`. `older` is the remote's main before `second`.
 */
export async function pushedCanvases(dir: string, first: string, second: string): Promise<{ bare: string; ws: Workspace; older: string }> {
  const bare = join(dir, 'shared.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const ws = tempWorkspace();
  const ok = async (args: string[]) => {
    const r = await runMain(ws, args);
    if (r.code !== 0) throw new Error(`canvas ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  await ok(['remote', 'set', bare]);
  await ok(['create', first, '--why', 'the first canvas']);
  await ok(['insert', first, '--into', 'root', '--text', 'what we know', '--base', baseOf(await ok(['read', first])), '--why', 'a finding']);
  const older = execFileSync('git', ['-C', bare, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim();
  await ok(['create', second, '--why', 'a second canvas, later']);
  return { bare, ws, older };
}

/**
 * A site's manifest text as its parts (docs/site.md, "Incremental"): the head line and the
 * entries line a build writes, or, for a manifest of one line, no head.
 */
export function manifestParts(text: string): { head: Record<string, unknown> | null; manifest: { renderer: string; entries: Record<string, Record<string, unknown>>; index?: string } } {
  const lines = text.split('\n').filter(Boolean);
  return { head: lines.length > 1 ? JSON.parse(lines[0]!) : null, manifest: JSON.parse(lines[lines.length - 1]!) };
}
