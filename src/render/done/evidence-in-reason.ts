/** What a reason can cite as evidence (docs/projections.md, "The done artifact"). */
export type CitedKind = 'pr' | 'sha' | 'file-line';

/** One citation found in a reason, as written there. */
export interface Citation {
  kind: CitedKind;
  /** The citation's text, exactly as the reason writes it (`PR #41`, `3f2a1b0`, `src/a.ts:12`). */
  value: string;
}

/**
 * The patterns, mechanical and fixed: a pull request (`PR #41`, `PR 41`, `pull request #41`, a
 * `/pull/41` URL), a file and line (`path/name.ext:12` or `:12-20`), and a commit sha (7 to 40 hex
 * characters, at least one a letter and one a digit, standing alone as a word).
 */
const PATTERNS: ReadonlyArray<readonly [CitedKind, RegExp]> = [
  ['pr', /\b(?:PR|pull request)\s*#?\d+\b|\/pull\/\d+\b/giu],
  ['file-line', /(?<![\w./-])[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]*:\d+(?:-\d+)?\b/gu],
  ['sha', /(?<![\w/.#:-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])/gu],
];

/**
 * Find what a reason cites: pull requests, files and lines, commit shas, in the order they
 * appear (docs/projections.md, "The done artifact"). Pure and mechanical: no model, no lookup.
 *
 * @param reason - one commit's reason
 * @returns the citations, each once, in reason order
 */
export function evidenceInReason(reason: string): Citation[] {
  const found: Array<Citation & { at: number }> = [];
  for (const [kind, pattern] of PATTERNS) {
    for (const m of reason.matchAll(pattern)) {
      const at = m.index ?? 0;
      // A sha inside a file path or a PR URL already found is not a citation of its own.
      if (found.some((f) => at >= f.at && at < f.at + f.value.length)) continue;
      found.push({ kind, value: m[0], at });
    }
  }
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.at - b.at)
    .filter((f) => !seen.has(`${f.kind} ${f.value}`) && seen.add(`${f.kind} ${f.value}`))
    .map(({ kind, value }) => ({ kind, value }));
}
