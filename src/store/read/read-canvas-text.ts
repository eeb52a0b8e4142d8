import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import type { Canvas } from '../../model/types.js';
import { resolveBase } from '../repo/commits-since.js';
import { RepoReader } from '../repo/repo-reader.js';
import { revisionAt } from '../repo/revision-at.js';
import { TREE_CACHE_CHECKS, treeCachePath } from '../repo/tree-cache-path.js';
import type { Workspace } from '../repo/workspace.js';
import { canvasFile } from '../repo/layout.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/** A canvas as read at one revision. */
export interface CanvasText {
  ledger: string;
  /**
   * The revision to write against (`Canvas-Base:`): the canvas's latest commit, or with `at` its
   * latest commit at or before `at` (never `at` itself when that is another canvas's commit).
   */
  revision: string;
  /** The canonical XML. */
  xml: string;
}

/** Options of {@link readCanvasText}. */
export interface ReadOptions {
  ledger: string;
  /** A commit on main (7+ hex): the canvas as it stood there, at its own revision as of that commit. */
  at?: string | undefined;
}

/** A canvas's stored bytes at its revision, with their blob sha as git names them. */
interface StoredCanvas extends CanvasText {
  blob: string;
  bytes: Buffer;
}

/**
 * Read a canvas's revision and stored bytes, unchecked.
 *
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE` (a bad `at`)
 */
async function readStored(ws: Workspace, options: ReadOptions, reader?: RepoReader): Promise<StoredCanvas> {
  const ledger = checkLedgerId(options.ledger);
  const r = reader ?? new RepoReader(ws);
  try {
    const revision = options.at !== undefined ? await revisionAt(r, ledger, await resolveBase(r, options.at, '--at', ledger)) : await r.revision(ledger);
    const stored = revision ? await r.blob(revision, canvasFile(ledger)) : null;
    if (!revision || !stored) {
      throw canvasNotFound(ws.root, ledger, options.at);
    }
    return { ledger, revision, xml: stored.content.toString('utf8'), blob: stored.sha, bytes: stored.content };
  } finally {
    if (!reader) r.close();
  }
}

/**
 * The blob sha of the document the store last wrote for a canvas, as its tree cache records it
 * (`.git/canvas-cache/trees/<ledger>.json`, which the store writes only after the write path
 * checked those bytes; docs/store.md, "Reads"), or null when there is none. Only the head of the
 * file is read: the writer puts the blob and the version of the checks first
 * (`{"blob":"<sha>","checks":<n>,...`), so the figure does not grow with the canvas; a cache of
 * other checks than {@link TREE_CACHE_CHECKS} names nothing.
 */
function blobTheStoreWrote(ws: Workspace, ledger: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(treeCachePath(join(ws.repo, '.git'), ledger), 'r');
    const head = Buffer.alloc(128);
    const n = readSync(fd, head, 0, head.length, 0);
    const m = /^\{"blob":"([0-9a-f]{40}(?:[0-9a-f]{24})?)","checks":(\d+),/.exec(head.toString('latin1', 0, n));
    // Bytes cached under other checks than this build's are checked again.
    return m && Number(m[2]) === TREE_CACHE_CHECKS ? m[1]! : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The tree of a canvas's bytes, parsed and checked. The parser's modules are loaded here, when a
 * read needs them, not with this module: a plain read of store-written bytes never runs them.
 *
 * @throws CanvasError `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`
 */
async function parsed(text: CanvasText): Promise<Canvas> {
  const { parseCanvas } = await import('../../model/parse-canvas.js');
  return parseCanvas(text.xml, text.ledger);
}

/**
 * Read a canvas's XML and revision, and its tree: the bytes are parsed and checked before anyone
 * prints them, so committed bytes the write path would refuse (a DOCTYPE committed by hand, say)
 * are refused on every read path the same way (docs/store.md, "Reads").
 *
 * @returns ledger, revision (full sha), XML and the parsed tree
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE` (a bad `at`), and what
 *   the stored bytes break: `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`
 */
export async function readCheckedCanvas(ws: Workspace, options: ReadOptions, reader?: RepoReader): Promise<CanvasText & { canvas: Canvas }> {
  const { blob, bytes, ...text } = await readStored(ws, options, reader);
  // The tree of these very bytes from the tree cache when it holds one that serializes back to
  // them (never an authority: anything else is parsed and checked; docs/store.md, "Reads"), which
  // saves the parse: most of what `canvas render` of a large canvas spends before rendering.
  const { cachedCanvasTree } = await import('../repo/canvas-tree-cache.js');
  return { ...text, canvas: cachedCanvasTree(join(ws.repo, '.git'), text.ledger, bytes, blob) };
}

/**
 * Read a canvas's canonical XML and revision (what `canvas read` prints): one
 * `git cat-file --batch` process, and the XML parser unless the store vouches for the bytes.
 * What is printed is what a write would accept (docs/store.md, "Reads"): bytes whose blob is the
 * one the store itself last wrote for this canvas (its tree cache names it, and git names the
 * blob it read by the hash of its bytes) passed the write path's checks when they were written;
 * any other bytes (committed by hand, fetched from a remote, an older revision with `at`) are
 * parsed and checked here. Skipping the parse of store-written bytes took a read of a 200-node
 * canvas from 172-175 ms of CPU to 145-146 ms, about 40% of its cost above Node's own start
 * (docs/performance.md, "Start-up").
 *
 * @returns ledger, revision (full sha) and XML
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE` (a bad `at`),
 *   `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING` (the stored bytes)
 */
export async function readCanvasText(ws: Workspace, options: ReadOptions, reader?: RepoReader): Promise<CanvasText> {
  const { blob, bytes: _bytes, ...text } = await readStored(ws, options, reader);
  if (blob !== blobTheStoreWrote(ws, text.ledger)) await parsed(text);
  return text;
}
