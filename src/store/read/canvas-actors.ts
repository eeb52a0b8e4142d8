import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotEdit } from '../../model/snapshot.js';
import { whoOf } from '../repo/canvas-commit.js';
import { editRecord } from '../repo/edit-record.js';
import type { RepoReader } from '../repo/repo-reader.js';
import { saveCacheFile } from '../files/save-cache-file.js';

/** One author who acted on a canvas (docs/links.md, "Edges"). */
export interface CanvasActor {
  /** The `who` of their `Canvas-Author` (docs/store.md, "Writes"). */
  who: string;
  /** How many commits of the canvas's chain they authored: every op, grants and proposals included. */
  acts: number;
  /** Their latest commit on the chain: commit, op, node, author (as written), reason, date. */
  last: SnapshotEdit;
}

/** The cache's format: a file of another format is not read (it is rebuilt from the chain). */
const ACTORS_FORMAT = 1;

/** `.git/canvas-cache/actors/<ledger>.json`: the actors as of a revision, with each last act's place. */
interface ActorsCache {
  format: typeof ACTORS_FORMAT;
  revision: string;
  /** Commits folded: the chain's length at `revision`. */
  commits: number;
  /** Each actor with the place of their last act on the chain (0 = the create). */
  actors: Array<CanvasActor & { at: number }>;
}

function cachePath(reader: RepoReader, ledger: string): string {
  return join(reader.ws.repo, '.git', 'canvas-cache', 'actors', `${ledger}.json`);
}

function readCache(reader: RepoReader, ledger: string): ActorsCache | null {
  try {
    const c = JSON.parse(readFileSync(cachePath(reader, ledger), 'utf8')) as ActorsCache;
    return c.format === ACTORS_FORMAT && typeof c.revision === 'string' && Array.isArray(c.actors) && Number.isInteger(c.commits) ? c : null;
  } catch {
    return null;
  }
}

/**
 * Who acted on a canvas up to a revision (docs/links.md, "Edges"): every `who` that authored a
 * commit of its chain, with their count and their latest commit, the latest actor first. Folded
 * from the chain, with a cache keyed by revision in `.git/canvas-cache/actors/`: only the commits
 * after the cached revision are read, and the cache is used only when its revision is on the
 * chain being read (else the whole chain is folded). Never an authority.
 *
 * @param reader - an open reader of the repository
 * @param ledger - the ledger id (checked by the caller)
 * @param revision - the canvas's revision
 * @returns the actors, latest act first
 * @throws CanvasError `INTERNAL` when the chain is broken, `GIT_FAILED`
 */
export async function canvasActors(reader: RepoReader, ledger: string, revision: string): Promise<CanvasActor[]> {
  const cached = readCache(reader, ledger);
  let met = false;
  const newer = [];
  for await (const c of reader.chain(revision, (c) => (met = c.sha === cached?.revision))) newer.push(c);
  const base = met && cached ? cached : { commits: 0, actors: [] };
  const byWho = new Map(base.actors.map((a) => [a.who, { ...a }]));
  newer.reverse().forEach((c, k) => {
    const who = whoOf(c.trailers['Canvas-Author']) || c.authorName;
    const at = base.commits + k;
    const seen = byWho.get(who);
    byWho.set(who, { who, acts: (seen?.acts ?? 0) + 1, last: editRecord(c), at });
  });
  const actors = [...byWho.values()].sort((a, b) => b.at - a.at);
  if (newer.length > 0) {
    saveCacheFile(cachePath(reader, ledger), JSON.stringify({ format: ACTORS_FORMAT, revision, commits: base.commits + newer.length, actors } satisfies ActorsCache));
  }
  return actors.map(({ at: _at, ...a }) => a);
}
