// How an Excalidraw element's style becomes roughjs options and SVG attributes
// (docs/excalidraw.md, "What is drawn"), following Excalidraw's own renderer: the same seed, the
// same roughness adjustment for small shapes, the same dash arrays and hachure gap. Colours and
// fill styles outside what Excalidraw writes are drawn inert (black, no fill, hachure).
import type { Options } from 'roughjs/bin/core.js';
import type { SceneElement } from '../../model/excalidraw/scene-types.js';

/** A colour a presentation attribute may hold: hex, a name, or rgb()/hsl() of plain numbers. */
const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(rgba?|hsla?)\([0-9., %]{1,60}\))$/;

const FILL_STYLES = new Set(['hachure', 'cross-hatch', 'solid', 'zigzag', 'zigzag-line', 'dots', 'dashed']);

/** Types Excalidraw draws as a linear element. */
const LINEAR = new Set(['line', 'arrow']);

/**
 * A colour as drawn: the element's when it is a plain colour, else the fallback.
 *
 * @param value - the colour as stored
 * @param fallback - what to draw instead (`#1e1e1e` for a stroke, `none` for a fill)
 */
export function safeColor(value: string, fallback: string): string {
  const v = value.trim();
  if (v === 'transparent') return 'none';
  return COLOR.test(v) ? v : fallback;
}

function adjustRoughness(e: SceneElement): number {
  const maxSize = Math.max(Math.abs(e.width), Math.abs(e.height));
  const minSize = Math.min(Math.abs(e.width), Math.abs(e.height));
  const roughness = Math.min(Math.max(e.roughness, 0), 10);
  if ((minSize >= 20 && maxSize >= 50) || (minSize >= 15 && e.roundness !== null && e.type !== 'line' && e.type !== 'arrow') || (LINEAR.has(e.type) && maxSize >= 50)) {
    return roughness;
  }
  return Math.min(roughness / (maxSize < 10 ? 3 : 2), 2.5);
}

/** Excalidraw's dash array of a dashed stroke. */
function dashed(strokeWidth: number): number[] {
  return [8, 8 + strokeWidth];
}

/** Excalidraw's dash array of a dotted stroke. */
export function dotted(strokeWidth: number): number[] {
  return [1.5, 6 + strokeWidth];
}

/** A closed path: its last point on its first (Excalidraw fills such a line). */
function isLoop(points: readonly [number, number][]): boolean {
  if (points.length < 3) return false;
  const [a, b] = [points[0]!, points[points.length - 1]!];
  return Math.hypot(a[0] - b[0], a[1] - b[1]) <= 8;
}

/**
 * The roughjs options of an element, as Excalidraw makes them.
 *
 * @param e - the element
 * @param gapFloor - the smallest hachure gaps this drawing allows (px), so that the fill of a huge
 *   shape stays a bounded number of strokes
 * @param continuousPath - true for a shape drawn as one path (rounded corners)
 */
export function roughOptions(e: SceneElement, gapFloor: GapFloor, continuousPath = false): Options {
  const strokeWidth = Math.min(Math.max(e.strokeWidth, 0.1), 100);
  const solid = e.strokeStyle !== 'dashed' && e.strokeStyle !== 'dotted';
  const options: Options = {
    seed: e.seed,
    disableMultiStroke: !solid,
    strokeWidth: solid ? strokeWidth : strokeWidth + 0.5,
    fillWeight: strokeWidth / 2,
    hachureGap: Math.max(strokeWidth * 4, gapFloor.lines),
    roughness: adjustRoughness(e),
    stroke: safeColor(e.strokeColor, '#1e1e1e'),
    preserveVertices: continuousPath || e.roughness < 2,
  };
  if (e.strokeStyle === 'dashed') options.strokeLineDash = dashed(strokeWidth);
  if (e.strokeStyle === 'dotted') options.strokeLineDash = dotted(strokeWidth);
  const fill = safeColor(e.backgroundColor, 'none');
  const filled = e.type === 'line' || e.type === 'freedraw' ? isLoop(e.points) : !LINEAR.has(e.type);
  if (filled) {
    options.fillStyle = gapFloor.solid.has(e.id) ? 'solid' : FILL_STYLES.has(e.fillStyle) ? e.fillStyle : 'hachure';
    if (fill !== 'none') options.fill = fill;
    // Fills of dots, dashes and zigzags grow with the area, not the size: their own floor.
    if (AREA_FILLS.has(options.fillStyle)) options.hachureGap = Math.max(options.hachureGap!, gapFloor.area);
  }
  if (e.type === 'ellipse') options.curveFitting = 1;
  return options;
}

/** Fills whose strokes cover the area (many short marks per hachure line). */
const AREA_FILLS = new Set(['dots', 'dashed', 'zigzag-line']);

/** How a drawing's sketched fills are bounded: the smallest gaps (px), and who is filled solid. */
export interface GapFloor {
  /** The smallest gap of a fill of lines. */
  lines: number;
  /** The smallest gap of a fill of marks (dots, dashes, zigzag lines). */
  area: number;
  /** The elements past the scan budget, whose fill is drawn solid. */
  solid: ReadonlySet<string>;
}

/**
 * How many pixels roughjs's hachure scan may walk for one drawing: it steps one pixel at a time
 * across each filled shape, whatever the gap, so a huge shape costs its size in time.
 */
const FILL_SCAN = 200_000;

/** About the most lines, and marks, all the fills of one drawing take (docs/excalidraw.md, "What is drawn"). */
const FILL_LINES = 5_000;
const FILL_MARKS = 2_000;

/**
 * The smallest hachure gaps of a drawing: none below Excalidraw's own for ordinary scenes, and
 * wide enough that all the scene's sketched fills together take at most about 5,000 lines (a fill
 * of lines takes about its size over the gap) and 2,000 marks (a fill of dots, dashes or zigzags
 * takes its area over the gap squared). A solid fill is one path and counts for nothing. The
 * sketched fills that would take the scan past 200,000 px (roughjs walks each filled shape one
 * pixel at a time) are drawn solid.
 *
 * @param elements - the elements drawn
 * @returns the floors in px
 */
export function hachureGapFloor(elements: readonly SceneElement[]): GapFloor {
  let extent = 0;
  let area = 0;
  let scan = 0;
  const solid = new Set<string>();
  for (const e of elements) {
    if (e.fillStyle === 'solid' || safeColor(e.backgroundColor, 'none') === 'none') continue;
    const [w, h] = [Math.abs(e.width), Math.abs(e.height)];
    if (scan + w + h > FILL_SCAN) {
      solid.add(e.id);
      continue;
    }
    scan += w + h;
    if (AREA_FILLS.has(e.fillStyle)) area += w * h;
    else extent += Math.max(w, h);
  }
  return { lines: Math.max(1, extent / FILL_LINES), area: Math.max(1, Math.sqrt(area / FILL_MARKS)), solid };
}

/** The font stacks of Excalidraw's font families (no font is embedded; the reader's fonts draw). */
const FONTS: Readonly<Record<number, string>> = {
  1: 'Virgil, Excalifont, "Segoe Print", "Comic Sans MS", cursive',
  2: 'Helvetica, Arial, sans-serif',
  3: 'Cascadia, "Cascadia Code", Consolas, monospace',
  5: 'Excalifont, Virgil, "Segoe Print", "Comic Sans MS", cursive',
  6: 'Nunito, "Segoe UI", Helvetica, Arial, sans-serif',
  7: '"Lilita One", Impact, sans-serif',
  8: '"Comic Shanns", "Comic Sans MS", monospace',
  9: '"Liberation Sans", Arial, sans-serif',
};

/**
 * The CSS font stack of an Excalidraw font family number.
 *
 * @param family - `fontFamily` as stored
 */
export function fontStack(family: number): string {
  return FONTS[family] ?? FONTS[1]!;
}
