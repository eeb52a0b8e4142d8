import type { Canvas, CanvasNode, TextNode } from './types.js';

/** How long a summary may be, in characters as a reader counts them (grapheme clusters). */
export const SUMMARY_LENGTH = 80;

/** A canvas's summary (`docs/projections.md`, "The summary"). */
export interface CanvasSummary {
  /** The id of the text node it is taken from: the canvas's first text node. */
  node: string;
  /**
   * One line: the node's text with every run of white space (line feeds included) made one space,
   * trimmed, and, when longer than the limit, cut at a word boundary and ended with `…`. At most
   * the limit in grapheme clusters, the `…` included.
   */
  text: string;
  /** The node's whole text, its white space made one line the same way: for a hover title. */
  full: string;
  /** Whether `text` was cut (then it ends in `…` and differs from `full`). */
  cut: boolean;
}

const ELLIPSIS = '…';
/** Characters left off the end of a cut before the ellipsis: a cut reads "the cache…", not "the cache,…". */
const TRAILING = /[\s,;:.\-–—/\\]+$/u;

/**
 * The two segmenters, made when first needed: making one loads ICU's break rules, which was 9% of
 * the CPU profile of a `canvas render` of a 50-node canvas (docs/performance.md, "Start-up"), and
 * a summary of printable ASCII cut before a space needs neither.
 */
let segmenters: { graphemes: Intl.Segmenter; words: Intl.Segmenter } | undefined;
function segmenter(granularity: 'grapheme' | 'word'): Intl.Segmenter {
  segmenters ??= { graphemes: new Intl.Segmenter('en', { granularity: 'grapheme' }), words: new Intl.Segmenter('en', { granularity: 'word' }) };
  return granularity === 'grapheme' ? segmenters.graphemes : segmenters.words;
}

function firstText(nodes: readonly CanvasNode[]): TextNode | null {
  for (const n of nodes) {
    if (n.type === 'text' && oneLine(n.text) !== '') return n;
    if (n.type === 'section') {
      const inner = firstText(n.children);
      if (inner) return inner;
    }
  }
  return null;
}

function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** Printable ASCII: each of its characters is a grapheme cluster of its own (UAX #29). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The grapheme clusters in `s`. Printable ASCII, most of what canvases hold, is counted by its
 * length: segmenting costs about a microsecond a character, several per cent of a site build.
 */
function graphemeCount(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  return Array.from(segmenter('grapheme').segment(s)).length;
}

/**
 * Where to cut `line` so that at most `room` grapheme clusters stay: the last boundary before a
 * space, else the last end of a word (text written without spaces, such as Chinese, has word
 * boundaries but no spaces), else, when either would keep less than half the room (one very long
 * word, a URL), the last grapheme boundary. Returns the index into `line`, in UTF-16 code units.
 */
function cutPoint(line: string, room: number): number {
  const half = Math.ceil(room / 2);
  if (PRINTABLE_ASCII.test(line)) {
    // Each character is a grapheme cluster and each space a word boundary (UAX #29), so the loop
    // below would stop at the last space at or before index `room`.
    const space = line.lastIndexOf(' ', room);
    if (space >= half) return space;
  }
  let count = 0;
  let beforeSpace = 0;
  let afterWord = 0;
  for (const seg of segmenter('word').segment(line)) {
    if (/^\s/u.test(seg.segment)) beforeSpace = seg.index;
    const n = graphemeCount(seg.segment);
    if (count + n > room) break;
    count += n;
    if (seg.isWordLike) afterWord = seg.index + seg.segment.length;
  }
  if (beforeSpace > 0 && graphemeCount(line.slice(0, beforeSpace)) >= half) return beforeSpace;
  if (afterWord > 0 && graphemeCount(line.slice(0, afterWord)) >= half) return afterWord;
  let end = 0;
  count = 0;
  for (const g of segmenter('grapheme').segment(line)) {
    if (count === room) break;
    count++;
    end = g.index + g.segment.length;
  }
  return end;
}

/**
 * The canvas's summary (`docs/projections.md`, "The summary"): its first text node in document
 * order (sections' children included), which `canvas open` makes from the problem, as one line cut
 * at a word boundary to at most `limit` characters, with the whole text beside it for a hover
 * title. Pure: the same tree gives the same summary. A text may hold bidirectional controls; the
 * projections isolate the summary as they isolate any node's text.
 *
 * @param canvas - the tree (any revision)
 * @param limit - the most grapheme clusters `text` may hold, the ellipsis included (an integer of 2
 *   or more; default {@link SUMMARY_LENGTH})
 * @returns the summary, or null when the canvas holds no text node
 */
export function canvasSummary(canvas: Canvas, limit: number = SUMMARY_LENGTH): CanvasSummary | null {
  const node = firstText(canvas.children);
  if (!node) return null;
  const full = oneLine(node.text);
  if (graphemeCount(full) <= limit) return { node: node.id, text: full, full, cut: false };
  const kept = full.slice(0, cutPoint(full, Math.max(1, limit - 1)));
  const head = kept.replace(TRAILING, '') || kept;
  return { node: node.id, text: `${head}${ELLIPSIS}`, full, cut: true };
}
