// The rough shapes of one Excalidraw element (docs/excalidraw.md, "What is drawn"), made the way
// Excalidraw's renderer makes them: rectangles and diamonds with its corner radii, ellipses,
// lines and arrows (straight, curved, elbowed) with their heads, and free draw as the filled
// outline perfect-freehand gives, which is what Excalidraw itself draws.
import { getStroke } from 'perfect-freehand';
import type { Drawable } from 'roughjs/bin/core.js';
import type { RoughGenerator } from 'roughjs/bin/generator.js';
import type { SceneElement } from '../../model/excalidraw/scene-types.js';
import { arrowhead } from './excalidraw-arrowheads.js';
import { type GapFloor, roughOptions, safeColor } from './excalidraw-style.js';

/** One element's shapes: rough drawables, and for free draw one outline path filled with its colour. */
export interface ElementShapes {
  drawables: Drawable[];
  outline?: { d: string; fill: string };
}

function cornerRadius(x: number, e: SceneElement): number {
  const type = e.roundness?.type;
  if (type === 1 || type === 2) return x * 0.25;
  if (type === 3) {
    const fixed = e.roundness?.value ?? 32;
    return x <= fixed / 0.25 ? x * 0.25 : fixed;
  }
  return 0;
}

function rectangle(gen: RoughGenerator, e: SceneElement, gap: GapFloor): Drawable {
  const { width: w, height: h } = e;
  if (e.roundness) {
    const r = cornerRadius(Math.min(w, h), e);
    return gen.path(`M ${r} 0 L ${w - r} 0 Q ${w} 0, ${w} ${r} L ${w} ${h - r} Q ${w} ${h}, ${w - r} ${h} L ${r} ${h} Q 0 ${h}, 0 ${h - r} L 0 ${r} Q 0 0, ${r} 0`, roughOptions(e, gap, true));
  }
  return gen.rectangle(0, 0, w, h, roughOptions(e, gap));
}

function diamond(gen: RoughGenerator, e: SceneElement, gap: GapFloor): Drawable {
  const topX = Math.floor(e.width / 2) + 1;
  const rightY = Math.floor(e.height / 2) + 1;
  const [topY, rightX, bottomX, bottomY, leftX, leftY] = [0, e.width, topX, e.height, 0, rightY];
  if (e.roundness) {
    const v = cornerRadius(Math.abs(topX - leftX), e);
    const hr = cornerRadius(Math.abs(rightY - topY), e);
    return gen.path(
      `M ${topX + v} ${topY + hr} L ${rightX - v} ${rightY - hr} C ${rightX} ${rightY}, ${rightX} ${rightY}, ${rightX - v} ${rightY + hr} ` +
        `L ${bottomX + v} ${bottomY - hr} C ${bottomX} ${bottomY}, ${bottomX} ${bottomY}, ${bottomX - v} ${bottomY - hr} ` +
        `L ${leftX + v} ${leftY + hr} C ${leftX} ${leftY}, ${leftX} ${leftY}, ${leftX + v} ${leftY - hr} ` +
        `L ${topX - v} ${topY + hr} C ${topX} ${topY}, ${topX} ${topY}, ${topX + v} ${topY + hr}`,
      roughOptions(e, gap, true),
    );
  }
  return gen.polygon(
    [
      [topX, topY],
      [rightX, rightY],
      [bottomX, bottomY],
      [leftX, leftY],
    ],
    roughOptions(e, gap),
  );
}

/** An elbowed arrow: its corners rounded by at most 16 px, as one path. */
function elbowPath(points: readonly [number, number][]): string {
  const parts = [`M ${points[0]![0]} ${points[0]![1]}`];
  for (let i = 1; i < points.length - 1; i += 1) {
    const [a, b, c] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const r = Math.min(16, Math.hypot(b[0] - a[0], b[1] - a[1]) / 2, Math.hypot(c[0] - b[0], c[1] - b[1]) / 2);
    const toward = (p: [number, number], q: [number, number]): [number, number] => {
      const d = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
      return [p[0] + ((q[0] - p[0]) * r) / d, p[1] + ((q[1] - p[1]) * r) / d];
    };
    const [s, t] = [toward(b, a), toward(b, c)];
    parts.push(`L ${s[0]} ${s[1]}`, `Q ${b[0]} ${b[1]}, ${t[0]} ${t[1]}`);
  }
  const last = points[points.length - 1]!;
  parts.push(`L ${last[0]} ${last[1]}`);
  return parts.join(' ');
}

function linear(gen: RoughGenerator, e: SceneElement, gap: GapFloor, background: string): Drawable[] {
  const options = roughOptions(e, gap);
  const points: [number, number][] = e.points.length > 0 ? e.points : [[0, 0]];
  let shape: Drawable;
  if (e.type === 'arrow' && e.elbowed && points.length > 1) shape = gen.path(elbowPath(points), roughOptions(e, gap, true));
  else if (e.roundness === null) shape = options.fill ? gen.polygon(points, options) : gen.linearPath(points, options);
  else shape = gen.curve(points, options);
  const out = [shape];
  if (e.type === 'arrow') {
    if (e.startArrowhead !== null) out.push(...arrowhead(gen, e, shape, 'start', e.startArrowhead, options, background));
    if (e.endArrowhead !== null) out.push(...arrowhead(gen, e, shape, 'end', e.endArrowhead, options, background));
  }
  return out;
}

const med = (a: number[], b: number[]): number[] => [(a[0]! + b[0]!) / 2, (a[1]! + b[1]!) / 2];

/** Free draw as Excalidraw draws it: perfect-freehand's outline of the stroke, filled. */
function freedrawOutline(e: SceneElement): string {
  const input = e.simulatePressure ? e.points : e.points.length > 0 ? e.points.map(([x, y], i) => [x, y, e.pressures[i] ?? 0.5]) : [[0, 0, 0.5]];
  const stroke = getStroke(input, {
    simulatePressure: e.simulatePressure,
    size: Math.min(Math.max(e.strokeWidth, 0.1), 100) * 4.25,
    thinning: 0.6,
    smoothing: 0.5,
    streamline: 0.5,
    easing: (t) => Math.sin((t * Math.PI) / 2),
    last: e.lastCommitted,
  });
  if (stroke.length === 0) return '';
  const parts: (string | number[])[] = ['M', stroke[0]!, 'Q'];
  stroke.forEach((p, i) => {
    if (i === stroke.length - 1) parts.push(p, med(p, stroke[0]!), 'L', stroke[0]!, 'Z');
    else parts.push(p, med(p, stroke[i + 1]!));
  });
  return parts.map((p) => (typeof p === 'string' ? p : p.map((n) => String(+n.toFixed(2))).join(','))).join(' ');
}

/**
 * The shapes of one element, in its own coordinates (the drawer translates and rotates them).
 *
 * @param gen - the rough generator
 * @param e - the element (a type this module draws: rectangle, diamond, ellipse, line, arrow,
 *   freedraw, or a frame's outline as a rectangle)
 * @param gap - the drawing's hachure gap floors (px)
 * @param background - the scene's background colour, for outline arrowheads
 * @returns the drawables, or null for a type this module does not draw
 */
export function elementShapes(gen: RoughGenerator, e: SceneElement, gap: GapFloor, background: string): ElementShapes | null {
  switch (e.type) {
    case 'rectangle':
      return { drawables: [rectangle(gen, e, gap)] };
    case 'diamond':
      return { drawables: [diamond(gen, e, gap)] };
    case 'ellipse':
      return { drawables: [gen.ellipse(e.width / 2, e.height / 2, e.width, e.height, roughOptions(e, gap))] };
    case 'line':
    case 'arrow':
      return { drawables: linear(gen, e, gap, background) };
    case 'freedraw': {
      const options = roughOptions(e, gap);
      const fill = options.fill ? [gen.curve(e.points, { ...options, stroke: 'none' })] : [];
      return { drawables: fill, outline: { d: freedrawOutline(e), fill: safeColor(e.strokeColor, '#1e1e1e') } };
    }
    default:
      return null;
  }
}
