import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import type { LinkedCanvas } from '../../model/dangling-links.js';
import { indexNodes } from '../../model/index-nodes.js';
import { type LinkOut, linksOf } from '../../model/links-of.js';
import { cachedCanvasTree } from '../repo/canvas-tree-cache.js';
import { eachInFlight } from './each-in-flight.js';
import type { CanvasRef } from '../repo/list-canvases.js';
import { RepoReader } from '../repo/repo-reader.js';
import { saveCacheFile } from '../files/save-cache-file.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasFile } from '../repo/layout.js';

/** One canvas in the link graph: its revision, its node ids (null when unreadable) and its links. */
export interface LinkGraphEntry extends LinkedCanvas {
  revision: string;
}

/** How many canvases are read at once: their git reads are pipelined through one batch process. */
const IN_FLIGHT = 32;

/** The cache's first line: a file that does not begin with it is not read (it is rewritten). */
const LINKS_HEADER = '["canvas-links",3]';

/**
 * `.git/canvas-cache/_links.jsonl` (no ledger id begins with `_`): each canvas's node ids and links
 * as of a revision (docs/links.md), one JSON line per canvas after {@link LINKS_HEADER}:
 * `["<ledger>","<revision>","<node ids joined by spaces>",[<links>]]`. A build after one edit
 * reads every line, so a line is parsed only when its revision is current (found by its place:
 * a ledger id holds no `"` or `\`), the ids are one string (no id holds a space; a set is made
 * only when asked), and a rewrite copies the lines it kept instead of serializing them again.
 */
function cachePath(ws: Workspace): string {
  return join(ws.repo, '.git', 'canvas-cache', '_links.jsonl');
}

/** A cached canvas: its node ids, its links, and the line that holds them. */
type CachedLinks = { nodes: string; links: LinkOut[]; line: string };

/** The cached lines of these canvases at these revisions (any other line is not parsed), and how many lines the file holds. */
function readCache(ws: Workspace, revisions: ReadonlyMap<string, string>): { hits: Map<string, CachedLinks>; lines: number } {
  const hits = new Map<string, CachedLinks>();
  let text: string;
  try {
    text = readFileSync(cachePath(ws), 'utf8');
  } catch {
    // No cache, or an unreadable one: every canvas is read from the repository.
    return { hits, lines: 0 };
  }
  const lines = text.split('\n');
  if (lines[0] !== LINKS_HEADER) return { hits, lines: 0 };
  let count = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const q = line.indexOf('","', 2);
    if (!line.startsWith('["') || q < 0) continue;
    count += 1;
    const ledger = line.slice(2, q);
    const revision = revisions.get(ledger);
    if (revision === undefined || line.slice(q + 3, q + 3 + revision.length + 2) !== `${revision}",`) continue;
    try {
      const [l, r, nodes, links] = JSON.parse(line) as unknown[];
      if (l === ledger && r === revision && typeof nodes === 'string' && Array.isArray(links)) hits.set(ledger, { nodes, links: links as LinkOut[], line });
    } catch {
      // A damaged line: that canvas is read again.
    }
  }
  return { hits, lines: count };
}

/** Node ids kept as the cache's string, split into a set only when first asked (most canvases are no link's target). */
function nodeIds(joined: string): Pick<ReadonlySet<string>, 'has'> {
  let ids: Set<string> | undefined;
  return {
    has: (id) => {
      ids ??= new Set(joined === '' ? [] : joined.split(' '));
      return ids.has(id);
    },
  };
}

/** A canvas read from the repository: its graph entry, and its cache line (none when unreadable). */
async function entryOf(reader: RepoReader, ledger: string, revision: string): Promise<{ entry: LinkGraphEntry; line?: string }> {
  const bytes = await reader.file(revision, canvasFile(ledger));
  if (!bytes) return { entry: { revision, nodes: null, links: [] } };
  try {
    const canvas = cachedCanvasTree(join(reader.ws.repo, '.git'), ledger, bytes);
    const ids = [...indexNodes(canvas).keys()];
    const links = linksOf(canvas);
    return { entry: { revision, nodes: new Set(ids), links }, line: JSON.stringify([ledger, revision, ids.join(' '), links]) };
  } catch (e) {
    // A document that does not parse is reported by verify; here its canvas exists, nodes unknown.
    if (!(e instanceof CanvasError)) throw e;
    return { entry: { revision, nodes: null, links: [] } };
  }
}

/**
 * Every canvas's node ids and link nodes at its current revision (docs/links.md, "Dangling
 * links"), by ledger id: what the dangling-link check and `canvas edges` judge links against.
 * An entry cached in `.git/canvas-cache/_links.jsonl` for a canvas's current revision is used as it
 * is (an entry is a function of the revision's document); any other canvas is read, and the cache
 * rewritten. A canvas whose document cannot be read has `nodes: null` and no links (not cached).
 *
 * @param ws - the workspace
 * @param refs - every canvas and its revision (`listCanvases`)
 * @returns the graph, in the order of `refs`
 * @throws CanvasError `GIT_FAILED`
 */
export async function readLinkGraph(ws: Workspace, refs: readonly CanvasRef[]): Promise<Map<string, LinkGraphEntry>> {
  // An entry is a function of the revision's document: one cached for this revision is current.
  const { hits: cached, lines: fileLines } = refs.length > 0 ? readCache(ws, new Map(refs.map((r) => [r.ledger, r.revision]))) : { hits: new Map<string, CachedLinks>(), lines: 0 };
  const lines: Array<string | undefined> = [];
  const out: Array<LinkGraphEntry | undefined> = refs.map(({ ledger, revision }, i) => {
    const hit = cached.get(ledger);
    lines[i] = hit?.line;
    return hit ? { revision, nodes: nodeIds(hit.nodes), links: hit.links } : undefined;
  });
  const missing = refs.flatMap((_, i) => (out[i] === undefined ? [i] : []));
  const reader = new RepoReader(ws);
  try {
    await eachInFlight(missing, IN_FLIGHT, async (i) => {
      const read = await entryOf(reader, refs[i]!.ledger, refs[i]!.revision);
      out[i] = read.entry;
      lines[i] = read.line;
    });
  } finally {
    reader.close();
  }
  // Rewritten when a canvas was read again or the file holds lines of others (stale, or gone).
  if (refs.length > 0 && (missing.length > 0 || fileLines !== refs.length)) {
    saveCacheFile(cachePath(ws), `${[LINKS_HEADER, ...lines.filter((l) => l !== undefined)].join('\n')}\n`);
    // The one-object file of the earlier format, never read again.
    rmSync(join(ws.repo, '.git', 'canvas-cache', '_links.json'), { force: true });
  }
  return new Map(refs.map((r, i) => [r.ledger, out[i]!]));
}
