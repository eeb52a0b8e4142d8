/**
 * `digits` random hex digits (at most 12), to keep a name or a lock's nonce apart from another
 * process's: uniqueness, not secrecy (the files are in `.git`, made exclusively). From
 * `Math.random` (seeded per process from the system's entropy) rather than `node:crypto`: every
 * command loads this module and the lock's, `canvas read` creates nothing, and loading
 * `node:crypto` (about 20 of Node's own modules) cost a read 1-3.6% of its instructions
 * (docs/performance.md, "Start-up").
 *
 * @param digits - how many hex digits, 1 to 12
 * @returns that many lowercase hex digits
 */
export function randomHex(digits: number): string {
  return Math.floor(Math.random() * 16 ** digits)
    .toString(16)
    .padStart(digits, '0');
}
