/**
 * The repository's layout (docs/store.md, "Workspace"): where a canvas's files are, and which
 * canvas a path belongs to. Nothing else in the store spells these paths.
 *
 * ```
 * <ledger>.xml                    the canvas document
 * access/<ledger>.json            its grants (docs/roles.md, "Roles")
 * proposals/<ledger>/<id>.json    its proposals, each id ten hex digits (docs/roles.md, "Proposals")
 * ```
 */

/** A proposal's id: ten hex digits, from the hash of its request. */
export const PROPOSAL_ID = /^[0-9a-f]{10}$/;

/** The canvas document of `ledger`: `<ledger>.xml`. */
export function canvasFile(ledger: string): string {
  return `${ledger}.xml`;
}

/** The access file of `ledger`: `access/<ledger>.json`. */
export function accessFile(ledger: string): string {
  return `access/${ledger}.json`;
}

/** The folder of `ledger`'s proposals: `proposals/<ledger>`. */
export function proposalsFolder(ledger: string): string {
  return `proposals/${ledger}`;
}

/** The file of proposal `id` of `ledger`: `proposals/<ledger>/<id>.json`. */
export function proposalFile(ledger: string, id: string): string {
  return `${proposalsFolder(ledger)}/${id}.json`;
}

/** What a path of the repository is, and the canvas it belongs to. */
export interface RepoPath {
  /**
   * `canvas`, `access` or `proposal` for a file of the layout above; `stray` for any other path
   * under `access/` or `proposals/`, which belongs to the canvas its first name there gives.
   */
  kind: 'canvas' | 'access' | 'proposal' | 'stray';
  /** The ledger id the path names, as written (unchecked; empty for a file named `.xml`). */
  ledger: string;
  /** A proposal file's id, as written: {@link PROPOSAL_ID} tells whether it is one the store makes. */
  proposal?: string;
}

/**
 * Read a path of the repository back into the canvas it belongs to.
 *
 * @param path - a path relative to the repository's work tree, `/`-separated
 * @returns what the path is and its canvas, or null for a path outside the layout
 */
export function parseRepoPath(path: string): RepoPath | null {
  if (!path.includes('/')) return path.endsWith('.xml') ? { kind: 'canvas', ledger: path.slice(0, -4) } : null;
  const access = /^access\/([^/]+)\.json$/.exec(path);
  if (access) return { kind: 'access', ledger: access[1]! };
  const proposal = /^proposals\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (proposal) return { kind: 'proposal', ledger: proposal[1]!, proposal: proposal[2]! };
  const stray = /^(?:access|proposals)\/([^/]+?)(?:\.json)?(?:\/|$)/.exec(path);
  return stray ? { kind: 'stray', ledger: stray[1]! } : null;
}
