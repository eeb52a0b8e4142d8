/** How many hex characters a short sha shows, on the page, in the comment and in the prompt. */
const SHORT = 7;

/**
 * Shorten a commit sha for display (`docs/projections.md`, "What all three say": a crossing shows
 * its short sha).
 *
 * @param sha - a full 40-hex sha
 * @returns its first seven characters
 */
export function shortSha(sha: string): string {
  return sha.slice(0, SHORT);
}
