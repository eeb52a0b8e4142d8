import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import type { LinkedCanvas } from '../model/dangling-links.js';
import { indexNodes } from '../model/index-nodes.js';
import { type LinkOut, linksOf } from '../model/links-of.js';
import { cachedCanvasTree } from './canvas-tree-cache.js';
import { eachInFlight } from './each-in-flight.js';
import type { CanvasRef } from './list-canvases.js';
import { RepoReader } from './repo-reader.js';
import { saveCacheFile } from './save-cache-file.js';
import type { Workspace } from './workspace.js';

/** One canvas in the link graph: its revision, its node ids (null when unreadable) and its links. */
export interface LinkGraphEntry extends LinkedCanvas {
  revision: string;
}

/** How many canvases are read at once: their git reads are pipelined through one batch process. */
const IN_FLIGHT = 32;

/** The cache's format: a file of another format is not read (it is rewritten). */
const LINKS_FORMAT = 1;

/** `.git/canvas-cache/_links.json` (no ledger id begins with `_`): each canvas's node ids and links as of a revision (docs/links.md). */
interface LinksCache {
  format: typeof LINKS_FORMAT;
  entries: Record<string, { revision: string; nodes: string[]; links: LinkOut[] }>;
}

function cachePath(ws: Workspace): string {
  return join(ws.repo, '.git', 'canvas-cache', '_links.json');
}

function readCache(ws: Workspace): LinksCache['entries'] {
  try {
    const cache = JSON.parse(readFileSync(cachePath(ws), 'utf8')) as LinksCache;
    if (cache.format === LINKS_FORMAT && typeof cache.entries === 'object' && cache.entries !== null) return cache.entries;
  } catch {
    // No cache, or an unreadable one: every canvas is read from the repository.
  }
  return {};
}

async function entryOf(reader: RepoReader, ledger: string, revision: string): Promise<LinkGraphEntry> {
  const bytes = await reader.file(revision, `${ledger}.xml`);
  if (!bytes) return { revision, nodes: null, links: [] };
  try {
    const canvas = cachedCanvasTree(join(reader.ws.repo, '.git'), ledger, bytes);
    return { revision, nodes: new Set(indexNodes(canvas).keys()), links: linksOf(canvas) };
  } catch (e) {
    // A document that does not parse is reported by verify; here its canvas exists, nodes unknown.
    if (!(e instanceof CanvasError)) throw e;
    return { revision, nodes: null, links: [] };
  }
}

/**
 * Every canvas's node ids and link nodes at its current revision (docs/links.md, "Dangling
 * links"), by ledger id: what the dangling-link check and `canvas edges` judge links against.
 * An entry cached in `.git/canvas-cache/_links.json` for a canvas's current revision is used as it
 * is (an entry is a function of the revision's document); any other canvas is read, and the cache
 * rewritten. A canvas whose document cannot be read has `nodes: null` and no links (not cached).
 *
 * @param ws - the workspace
 * @param refs - every canvas and its revision (`listCanvases`)
 * @returns the graph, in the order of `refs`
 * @throws CanvasError `GIT_FAILED`
 */
export async function readLinkGraph(ws: Workspace, refs: readonly CanvasRef[]): Promise<Map<string, LinkGraphEntry>> {
  const cached = refs.length > 0 ? readCache(ws) : {};
  // An entry is a function of the revision's document: one cached for this revision is current.
  const out: Array<LinkGraphEntry | undefined> = refs.map(({ ledger, revision }) => {
    const hit = cached[ledger];
    return hit?.revision === revision && Array.isArray(hit.nodes) && Array.isArray(hit.links) ? { revision, nodes: new Set(hit.nodes), links: hit.links } : undefined;
  });
  const missing = refs.flatMap((_, i) => (out[i] === undefined ? [i] : []));
  const changed = missing.length > 0 || Object.keys(cached).length !== refs.length;
  const reader = new RepoReader(ws);
  try {
    await eachInFlight(missing, IN_FLIGHT, async (i) => {
      out[i] = await entryOf(reader, refs[i]!.ledger, refs[i]!.revision);
    });
  } finally {
    reader.close();
  }
  const graph = new Map(refs.map((r, i) => [r.ledger, out[i]!]));
  if (changed && refs.length > 0) {
    const entries: LinksCache['entries'] = {};
    for (const [ledger, e] of graph) if (e.nodes) entries[ledger] = { revision: e.revision, nodes: [...e.nodes], links: [...e.links] };
    saveCacheFile(cachePath(ws), JSON.stringify({ format: LINKS_FORMAT, entries } satisfies LinksCache));
  }
  return graph;
}
