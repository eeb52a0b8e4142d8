import { createHash } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Mint a node id deterministically (docs/identity.md): a SHA-256 of the ledger id, the canvas
 * revision, the payload and an attempt counter, shortened to `[a-z][a-z0-9]{3}`; every 8 taken
 * attempts the id grows by one character (up to 12). Same history, same ids.
 *
 * @param ledger - the ledger id
 * @param revision - the canvas's current revision (a full sha)
 * @param payload - the payload's canonical XML
 * @param taken - true for an id that ever appeared in this canvas's history
 * @returns a fresh id matching `^[a-z][a-z0-9]{3,11}$`
 */
export function mintId(ledger: string, revision: string, payload: string, taken: (id: string) => boolean): string {
  for (let attempt = 0; ; attempt += 1) {
    const length = Math.min(12, 4 + Math.floor(attempt / 8));
    const h = createHash('sha256').update(`${ledger}\n${revision}\n${payload}\n${attempt}`).digest();
    let id = LETTERS[h[0]! % 26]!;
    for (let i = 1; i < length; i += 1) id += ALNUM[h[i]! % 36]!;
    if (!taken(id)) return id;
  }
}
