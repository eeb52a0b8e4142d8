import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoReader } from '../repo/repo-reader.js';
import type { Violation } from './verify-rules.js';

const ZERO = '0'.repeat(40);

interface Entry {
  old: string;
  new: string;
}

function readLog(gitDir: string, ref: string): Entry[] | null {
  const path = join(gitDir, 'logs', ref);
  if (!existsSync(path)) return null;
  const out: Entry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) /.exec(line);
    if (m) out.push({ old: m[1]!, new: m[2]! });
  }
  return out;
}

/**
 * Check the reflogs of `main` and every `refs/canvas/*` against the history (docs/store.md,
 * "Verify"): every value a ref once held must still be in main's history (`truncated`
 * otherwise), and each reflog must be whole (`reflog`: present, each entry starting where the
 * previous one ended, the last ending at the ref's value). Two kinds of value outside the history
 * are not truncation: a commit the store did not make (dropped from main as the `FOREIGN_COMMIT`
 * hint says), and a write cut short inside its ref transaction (a store commit on top of the
 * history that git logged but that main never moved away from, because main never held it). An
 * entry that repeats the one before it is not a gap: git logged the move, was killed before the
 * ref itself moved, and the next command moved it the same way.
 * `HEAD`'s reflog, which git keeps beside main's, is read for values too.
 *
 * @param gitDir - the repository's `.git`
 * @param refs - each ref (`refs/heads/main`, `refs/canvas/<ledger>`) and its current value
 * @param history - every commit on main, with the ledger it names (if any)
 * @param reader - to read commits that are not in the history
 * @returns the violations, each naming the ref as its path
 */
export async function checkReflogs(gitDir: string, refs: ReadonlyMap<string, string>, history: ReadonlyMap<string, string | undefined>, reader: RepoReader): Promise<Violation[]> {
  const violations: Violation[] = [];
  const logs = new Map<string, Entry[] | null>();
  for (const ref of refs.keys()) logs.set(ref, readLog(gitDir, ref));
  const head = readLog(gitDir, 'HEAD') ?? [];
  // The values main moved away from: a value it never left was never really main's.
  const left = new Set([...(logs.get('refs/heads/main') ?? []), ...head].map((e) => e.old));
  const verdicts = new Map<string, { kind: 'ok' | 'cut-short' | 'truncated' | 'gone'; ledger?: string }>();
  const judge = async (sha: string) => {
    const known = verdicts.get(sha);
    if (known) return known;
    let verdict: { kind: 'ok' | 'cut-short' | 'truncated' | 'gone'; ledger?: string };
    if (sha === ZERO || history.has(sha)) verdict = { kind: 'ok' };
    else {
      const c = await reader.commit(sha);
      if (!c) verdict = { kind: 'gone' };
      else if (!c.op || !c.ledger) verdict = { kind: 'ok' };
      else if (!left.has(sha) && (c.parents[0] === undefined ? history.size === 0 : history.has(c.parents[0]))) verdict = { kind: 'cut-short', ledger: c.ledger };
      else verdict = { kind: 'truncated', ledger: c.ledger };
    }
    verdicts.set(sha, verdict);
    return verdict;
  };
  const sources: Array<[string, Entry[] | null]> = [...logs, ['HEAD', head]];
  const reported = new Set<string>();
  for (const [ref, entries] of sources) {
    const ledger = ref.startsWith('refs/canvas/') ? ref.slice('refs/canvas/'.length) : undefined;
    if (entries === null) {
      violations.push({
        rule: 'reflog',
        path: ref,
        ...(ledger ? { ledger } : {}),
        message: `${ref} has no reflog: the values it held cannot be checked (the store keeps one for every ref; it was deleted)`,
      });
      continue;
    }
    let held: string | null = null;
    let lastOld: string | null = null;
    let lastNew: string | null = null;
    let gap = false;
    for (const e of entries) {
      for (const sha of [e.old, e.new]) {
        const v = await judge(sha);
        if ((v.kind === 'truncated' || v.kind === 'gone') && !reported.has(sha)) {
          reported.add(sha);
          violations.push({
            rule: 'truncated',
            commit: sha,
            path: ref,
            ...((v.ledger ?? ledger) ? { ledger: (v.ledger ?? ledger)! } : {}),
            message: `${ref} once held ${sha.slice(0, 12)}, which is no longer in main's history${v.kind === 'gone' ? ' (nor in the repository)' : ''}: commits were dropped`,
          });
        }
      }
      if (ref === 'HEAD') continue;
      // An entry repeating the one before: git logged that move, was killed before renaming the
      // ref's lock into place, and the next command made the same move again.
      const repeated = e.old === lastOld && e.new === lastNew;
      if (held !== null && e.old !== held && e.old !== lastNew && !repeated) gap = true;
      lastOld = e.old;
      lastNew = e.new;
      held = (await judge(e.new)).kind === 'cut-short' ? (held ?? e.old) : e.new;
    }
    if (ref === 'HEAD') continue;
    const now = refs.get(ref)!;
    if (gap || held !== now) {
      violations.push({
        rule: 'reflog',
        path: ref,
        ...(ledger ? { ledger } : {}),
        message: gap
          ? `${ref}'s reflog has a gap: an entry does not start where the one before it ended (it was edited)`
          : `${ref} is ${now.slice(0, 12)} but its reflog ends at ${(held ?? 'nothing').slice(0, 12)}: it was moved without its reflog, or the reflog was edited`,
      });
    }
  }
  return violations;
}
