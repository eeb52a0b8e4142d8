import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/git.js';

/**
 * The repository setting that records where the base rule starts (docs/store.md, "Verify", the
 * `base` rule): `root` in a repository the store made, or the main sha at which the store first
 * opened a repository made before a write's base had to be a revision of its own canvas.
 */
export const BASE_RULE_KEY = 'canvas.chainBasesSince';

const MARKED = /^\s*chainbasessince\s*=/im;

/**
 * Record where the base rule starts when the repository does not say yet (docs/store.md,
 * "Verify"): at main as it is now, since every commit up to it was written when any earlier
 * commit on main was a valid base. Cheap when nothing is to do (one read of `.git/config`).
 * Call it under the repository lock, before a write.
 *
 * @param repo - the repository's work tree (`state/canvas`)
 * @throws CanvasError `GIT_FAILED`
 */
export async function markBaseRule(repo: string): Promise<void> {
  if (baseRuleMarked(repo) !== false) return;
  const { stdout } = await runGit(repo, ['rev-parse', '--verify', '-q', 'refs/heads/main'], { allowFail: true });
  await runGit(repo, ['config', BASE_RULE_KEY, stdout.trim() || 'root']);
}

/**
 * Whether the repository records where the base rule starts: null when it has no configuration
 * to read (nothing to mark).
 *
 * @param repo - the repository's work tree
 */
export function baseRuleMarked(repo: string): boolean | null {
  try {
    return MARKED.test(readFileSync(join(repo, '.git', 'config'), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Where the base rule starts: `null` for every commit (`root`, or no setting), else the main sha
 * up to which (inclusive) a base only had to be an earlier commit on main.
 *
 * @param repo - the repository's work tree
 */
export async function baseRuleSince(repo: string): Promise<string | null> {
  const { stdout } = await runGit(repo, ['config', '--get', BASE_RULE_KEY], { allowFail: true });
  const v = stdout.trim();
  return /^[0-9a-f]{40,64}$/.test(v) ? v : null;
}
