import { escapeAttribute } from './escape-xml.js';
import { parseCanvas } from './parse-canvas.js';
import { serializeNode } from './serialize-node.js';
import type { Canvas, CanvasNode } from './types.js';

/** What the close of a canvas with nodes is: its last line. */
const CLOSE = '</canvas>\n';

/** A canonical document as {@link parseCanonicalCanvas} read it, for the next revision to start from. */
export interface CanonicalCanvas {
  canvas: Canvas;
  /** The document's bytes. */
  bytes: Buffer;
  /** The byte offset where each top-level node's text starts, and last where the close starts. */
  starts: number[];
}

/** How many bytes the two buffers share from their start. */
function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let at = 0;
  // Compared a block at a time (native), then byte by byte inside the first block that differs.
  for (const size of [65536, 4096, 256]) {
    while (at + size <= n && a.subarray(at, at + size).equals(b.subarray(at, at + size))) at += size;
  }
  while (at < n && a[at] === b[at]) at += 1;
  return at;
}

/** How many bytes the two buffers share at their end, at most `limit`. */
function commonSuffix(a: Buffer, b: Buffer, limit: number): number {
  let at = 0;
  for (const size of [65536, 4096, 256]) {
    while (at + size <= limit && a.subarray(a.length - at - size, a.length - at).equals(b.subarray(b.length - at - size, b.length - at))) at += size;
  }
  while (at < limit && a[a.length - at - 1] === b[b.length - at - 1]) at += 1;
  return at;
}

/** The last entry of a sorted list that is at most `value` (its index). */
function lastAtMost(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Split the text of whole top-level nodes into each node's text: a node starts at a line of two
 * spaces and an opening tag (character data and attribute values never hold a raw `<`).
 *
 * @returns the texts, or null when the text does not start with a node
 */
function splitNodes(text: string): string[] | null {
  if (text === '') return [];
  if (!/^ {2}<[a-z]/.test(text)) return null;
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let next = text.indexOf('\n  <', at);
    while (next >= 0 && !/[a-z]/.test(text[next + 4] ?? '')) next = text.indexOf('\n  <', next + 1);
    const stop = next < 0 ? text.length : next + 1;
    out.push(text.slice(at, stop));
    at = stop;
  }
  return out;
}

/**
 * Parse one top-level node's text alone, inside the canvas's root, with every check of
 * `parseCanvas`; null unless it parses to one node whose canonical text it is.
 */
function parseNode(open: string, text: string, ledger: string): CanvasNode | null {
  let parsed: Canvas;
  try {
    parsed = parseCanvas(`${open}\n${text}${CLOSE}`, ledger);
  } catch {
    return null;
  }
  const only = parsed.children[0];
  return parsed.children.length === 1 && only && serializeNode(only, { depth: 1 }) === text ? only : null;
}

/** Whether no node id is used twice (the one check that spans the top-level nodes). */
function idsUnique(children: readonly CanvasNode[]): boolean {
  const seen = new Set<string>();
  const walk = (nodes: readonly CanvasNode[]): boolean => {
    for (const n of nodes) {
      if (seen.has(n.id)) return false;
      seen.add(n.id);
      if (n.type === 'section' && !walk(n.children)) return false;
    }
    return true;
  };
  return walk(children);
}

/**
 * Parse a canvas document that is in canonical form, parsing again only what changed since the
 * revision before (docs/store.md, "Verify", "Cost"). A canonical document is its root line, each
 * top-level node as `serializeNode` writes it at depth one, and the close. The bytes this
 * revision shares with the one before, from the start and from the end, hold the same top-level
 * nodes at the same places, and those are taken as they were parsed then; only the nodes between
 * are decoded and parsed, each alone inside the same root with every check of `parseCanvas` (a
 * node whose text was among the old ones between is taken as parsed then), and kept only when
 * canonical itself; the ids are then checked for uniqueness across all nodes.
 *
 * So a history whose revisions each change one node costs about the changed node per revision,
 * not a decode and parse of the whole document. Anything this cannot show to be canonical and
 * valid (another root line, a node that does not parse alone or is not canonical, an id used
 * twice) gives null, and the caller parses the whole document the ordinary way, which says
 * exactly what is wrong.
 *
 * @param bytes - the document's bytes (UTF-8)
 * @param ledger - the canvas's ledger id
 * @param before - this function's answer for the revision before, or null
 * @returns the canvas (canonical and valid), or null
 */
export function parseCanonicalCanvas(bytes: Buffer, ledger: string, before: CanonicalCanvas | null): CanonicalCanvas | null {
  const open = `<canvas ledger="${escapeAttribute(ledger)}" schema="2">`;
  const head = Buffer.byteLength(open) + 1;
  const empty = Buffer.from(`${open}${CLOSE}`);
  if (bytes.equals(empty)) return { canvas: { ledger, schema: '2', children: [] }, bytes, starts: [head] };
  const close = bytes.length - CLOSE.length;
  if (bytes.length < head + CLOSE.length || bytes.subarray(0, head).toString('utf8') !== `${open}\n` || bytes.subarray(close).toString('utf8') !== CLOSE) return null;
  // The old top-level nodes kept as they were: those wholly before the first byte that differs
  // and those wholly after the last; the rest of the new document is parsed.
  let keepHead = 0;
  let keepTail = 0;
  let from = head;
  let to = close;
  let oldMiddle: string[] = [];
  const old = before && before.canvas.children.length > 0 && before.bytes.length > 0 ? before : null;
  if (old) {
    const prefix = commonPrefix(old.bytes, bytes);
    const suffix = commonSuffix(old.bytes, bytes, Math.min(old.bytes.length, bytes.length) - prefix);
    const last = old.starts.length - 1;
    // The old node holding the first differing byte, and the one holding the last.
    const first = Math.min(lastAtMost(old.starts, prefix), last);
    const end = old.bytes.length - suffix;
    let stop = lastAtMost(old.starts, Math.max(end - 1, old.starts[first]!)) + 1;
    if (stop > last) stop = last;
    keepHead = first;
    keepTail = last - stop;
    from = old.starts[first]!;
    to = bytes.length - (old.bytes.length - old.starts[stop]!);
    oldMiddle = splitNodes(old.bytes.subarray(old.starts[first]!, old.starts[stop]!).toString('utf8')) ?? [];
    if (to < from) return null;
  }
  const between = bytes.subarray(from, to).toString('utf8');
  // Bytes that are not UTF-8 decode to U+FFFD of another length: the whole document is parsed,
  // and the caller's strict decoding says where.
  if (Buffer.byteLength(between) !== to - from) return null;
  const texts = splitNodes(between);
  if (texts === null) return null;
  const known = new Map<string, CanvasNode>();
  if (old) for (const [i, text] of oldMiddle.entries()) known.set(text, old.canvas.children[keepHead + i]!);
  const middle: CanvasNode[] = [];
  const middleStarts: number[] = [];
  let at = from;
  for (const text of texts) {
    const node = known.get(text) ?? parseNode(open, text, ledger);
    if (node === null) return null;
    middle.push(node);
    middleStarts.push(at);
    at += Buffer.byteLength(text);
  }
  const shift = old ? bytes.length - old.bytes.length : 0;
  const children = old ? [...old.canvas.children.slice(0, keepHead), ...middle, ...old.canvas.children.slice(old.canvas.children.length - keepTail)] : middle;
  const starts = old ? [...old.starts.slice(0, keepHead), ...middleStarts, ...old.starts.slice(old.starts.length - 1 - keepTail).map((s) => s + shift)] : [...middleStarts, close];
  // A canvas of no nodes has one canonical form, answered above: its root line and close on one line.
  if (children.length === 0 || !idsUnique(children)) return null;
  return { canvas: { ledger, schema: '2', children }, bytes, starts };
}
