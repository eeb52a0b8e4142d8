import { runGit } from '../git/git.js';
import { remoteFailed } from './remote-error.js';
import { REMOTE } from './shared-remote.js';

/** The summaries git gives a ref that did not move because another push moved it first. */
const STALE = /\((stale info|fetch first|non-fast-forward|atomic push failed|atomic transaction failed|failed to update ref|failed to lock)\)/;

/** One ref a push moves: to `next`, only if the remote still has it at `old` (null: must not exist). */
export interface PushedRef {
  ref: string;
  next: string;
  old: string | null;
}

/**
 * Push refs to the remote in one atomic transaction, each with its expected old value
 * (`git push --atomic --force-with-lease=<ref>:<old>`, docs/remote.md "Writes"): either every ref
 * moves or none does, and none moves if anybody moved it since it was fetched.
 *
 * @returns `pushed`, or `stale` when the remote no longer had a ref at its expected value (someone
 *   pushed first: fetch again and re-check)
 * @throws CanvasError `REMOTE_REFUSED` when the remote answered and refused (a hook, a permission),
 *   `REMOTE_UNREACHABLE` when it could not be reached; either way the remote did not move
 */
export async function pushRefs(repo: string, url: string, refs: readonly PushedRef[]): Promise<'pushed' | 'stale'> {
  const args = ['push', '--atomic', '--porcelain', '--no-verify', REMOTE];
  for (const r of refs) args.push(`--force-with-lease=${r.ref}:${r.old ?? ''}`);
  for (const r of refs) args.push(`${r.next}:${r.ref}`);
  const result = await runGit(repo, args, { allowFail: true });
  if (result.code === 0) return 'pushed';
  // Porcelain lines: `<flag>\t<from>:<to>\t<summary>`; `!` is a ref the push did not move. A
  // ref someone moved is stale either before the push (the lease against the refs the remote
  // advertised) or while the remote updates its refs (another push took them first: its
  // transaction fails); a push refused for any other reason (a hook, a permission) is not.
  const refused = result.stdout.split('\n').filter((l) => l.startsWith('!\t'));
  if (refused.length > 0 && refused.every((l) => STALE.test(l))) return 'stale';
  if (refused.length > 0) throw remoteFailed('push', url, `${refused.join('\n')}\n${result.stderr}`, true);
  throw remoteFailed('push', url, result.stderr, false);
}
