import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runGit } from '../git/git.js';

const KEEPING = /^\s*logallrefupdates\s*=\s*always\s*$/im;

/**
 * The configuration that keeps git's reflogs for `main` and every `refs/canvas/*`, for good
 * (docs/store.md, "Verify": the reflogs are what `verify` checks truncation against). Every git
 * call the store makes also passes `core.logAllRefUpdates=always` (see `gitConfigArgs`); this
 * sets it in the repository too, so that plain git run by hand logs its ref updates as well.
 */
export const REFLOG_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.logAllRefUpdates', 'always'],
  ['gc.reflogExpire', 'never'],
  ['gc.reflogExpireUnreachable', 'never'],
];

/**
 * Make sure a repository keeps its reflogs (docs/store.md, "Verify"): when its configuration
 * does not say so yet (a repository made before the store kept them, or a clone), set it, and
 * start a reflog for each of `main` and `refs/canvas/*` that has none, at its current value.
 * Values those refs held before cannot be checked. Cheap when nothing is to do (one read of
 * `.git/config`). Call it under the repository lock.
 *
 * @param repo - the repository's work tree (`state/canvas`)
 * @returns the refs whose reflog was started now (empty when the repository already kept them)
 * @throws CanvasError `GIT_FAILED`
 */
export async function keepReflogs(repo: string): Promise<string[]> {
  const missing = await reflogsToStart(repo);
  if (missing === null) return [];
  const gitDir = join(repo, '.git');
  for (const [k, v] of REFLOG_CONFIG) await runGit(repo, ['config', k, v]);
  const seconds = Math.floor(Date.now() / 1000);
  for (const [ref, sha] of missing) {
    const log = join(gitDir, 'logs', ref);
    mkdirSync(dirname(log), { recursive: true });
    // The line git itself writes (`<old> <new> <ident> <time> <zone>\t<message>`), old equal to new.
    writeFileSync(log, `${sha} ${sha} canvas <> ${seconds} +0000\tcanvas: reflog started at this value\n`);
  }
  return [...missing.keys()];
}

/**
 * What {@link keepReflogs} would do, read without writing (a `canvas verify` that cannot write:
 * docs/store.md, "Verify"): null when the repository keeps its reflogs already (or has no
 * configuration), else each of `main` and `refs/canvas/*` that has no reflog, with its value.
 *
 * @param repo - the repository's work tree (`state/canvas`)
 * @throws CanvasError `GIT_FAILED`
 */
export async function reflogsToStart(repo: string): Promise<Map<string, string> | null> {
  const gitDir = join(repo, '.git');
  let config = '';
  try {
    config = readFileSync(join(gitDir, 'config'), 'utf8');
  } catch {
    return null;
  }
  if (KEEPING.test(config)) return null;
  const { stdout } = await runGit(repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/main', 'refs/canvas/']);
  const missing = new Map<string, string>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [ref, sha] = line.split(' ') as [string, string];
    if (!existsSync(join(gitDir, 'logs', ref))) missing.set(ref, sha);
  }
  return missing;
}
