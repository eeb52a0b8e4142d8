import { readFileSync } from 'node:fs';
import { parseCanvas } from '../../model/parse-canvas.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import type { Canvas } from '../../model/types.js';
import { hashObject } from '../git/write-object.js';
import { saveCacheFile } from '../files/save-cache-file.js';
import { TREE_CACHE_CHECKS, treeCachePath } from './tree-cache-path.js';

interface TreeCache {
  /** The blob sha of the canvas document this tree was parsed from. */
  blob: string;
  /** The version of the checks those bytes passed ({@link TREE_CACHE_CHECKS}). */
  checks: number;
  canvas: Canvas;
}

/**
 * The tree of a canvas document, from the cache in `.git/canvas-cache/` when it holds the tree
 * of exactly these bytes (keyed by their blob sha, and accepted only if it serializes back to the
 * same bytes), else parsed. The cache is never an authority: the bytes are.
 *
 * @param gitDir - the repository's `.git` directory
 * @param ledger - the ledger id
 * @param bytes - the document at the canvas's revision
 * @param blob - their blob sha when the caller has it from git (a `git cat-file --batch` answer
 *   names it); else it is hashed here
 * @returns the tree
 * @throws CanvasError `XML_PARSE`, `SCHEMA`, ... when the bytes do not parse (no cache then)
 */
export function cachedCanvasTree(gitDir: string, ledger: string, bytes: Buffer, blob?: string): Canvas {
  const text = bytes.toString('utf8');
  try {
    const cached = JSON.parse(readFileSync(treeCachePath(gitDir, ledger), 'utf8')) as TreeCache;
    if (cached.checks === TREE_CACHE_CHECKS && cached.blob === (blob ?? hashObject('blob', bytes)) && cached.canvas.ledger === ledger && serializeCanvas(cached.canvas) === text) return cached.canvas;
  } catch {
    // No cache, or an unreadable one: parse.
  }
  return parseCanvas(text, ledger);
}

/**
 * Remember the tree of a canvas document just written (under the repository lock), after the
 * write path checked it, so the next write need not parse it and a plain read need not check
 * those bytes again (docs/store.md, "Reads").
 *
 * @param gitDir - the repository's `.git` directory
 * @param ledger - the ledger id
 * @param blob - the document's blob sha
 * @param canvas - its tree
 *
 * Only a cache: a write that fails (a full disk) leaves it as it was and fails nothing else.
 */
export function saveCanvasTree(gitDir: string, ledger: string, blob: string, canvas: Canvas): void {
  // The blob and the checks first: a plain read looks only at the head of the file to learn which
  // bytes the store wrote, under which checks (src/store/read/read-canvas-text.ts).
  saveCacheFile(treeCachePath(gitDir, ledger), JSON.stringify({ blob, checks: TREE_CACHE_CHECKS, canvas } satisfies TreeCache));
}
