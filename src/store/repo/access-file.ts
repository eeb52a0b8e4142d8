import type { RepoReader } from './repo-reader.js';
import { accessFile } from './layout.js';
import type { Grants } from './role.js';

/** The access file of a canvas: `access/<ledger>.json` (docs/roles.md, "Roles"). */
export interface AccessFile {
  ledger: string;
  grants: Grants;
}

/** Serialize an access file: sorted grants, two-space indent, one final newline. */
export function accessJson(ledger: string, grants: Grants): string {
  const sorted = Object.fromEntries(Object.entries(grants).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ ledger, grants: sorted }, null, 2)}\n`;
}

/**
 * Read a canvas's access file at a revision, as the store wrote it.
 *
 * @param reader - the repository's reader
 * @param revision - a commit (full sha)
 * @param ledger - the canvas's ledger id
 * @returns the file, or null when there is none (no grant yet: the creator alone is owner)
 */
export async function readAccessFile(reader: RepoReader, revision: string, ledger: string): Promise<AccessFile | null> {
  const bytes = await reader.file(revision, accessFile(ledger));
  return bytes ? (JSON.parse(bytes.toString('utf8')) as AccessFile) : null;
}
