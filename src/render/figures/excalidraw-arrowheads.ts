// Arrowheads as Excalidraw draws them (docs/excalidraw.md, "What is drawn"): the direction is
// taken from the last (or first) curve of the rough line itself, so a head sits on the drawn
// stroke, and its size shrinks with a short last segment.
import type { Drawable, Op, Options } from 'roughjs/bin/core.js';
import type { RoughGenerator } from 'roughjs/bin/generator.js';
import type { SceneElement } from '../../model/excalidraw/scene-types.js';
import { dotted } from './excalidraw-style.js';

type Pt = [number, number];

function rotate([x, y]: Pt, [cx, cy]: Pt, angle: number): Pt {
  return [(x - cx) * Math.cos(angle) - (y - cy) * Math.sin(angle) + cx, (x - cx) * Math.sin(angle) + (y - cy) * Math.cos(angle) + cy];
}

function sizeOf(head: string): number {
  if (head === 'arrow') return 25;
  if (head === 'diamond' || head === 'diamond_outline') return 12;
  if (head.startsWith('crowfoot')) return 20;
  return 15;
}

function angleOf(head: string): number {
  if (head === 'bar') return 90;
  if (head === 'arrow') return 20;
  return 25;
}

function curveOps(shape: Drawable): Op[] {
  for (const set of shape.sets) if (set.type === 'path') return set.ops;
  return shape.sets[0]?.ops ?? [];
}

/** The points of a head: [x, y, ...] as Excalidraw's getArrowheadPoints gives them, or null. */
function headPoints(e: SceneElement, shape: Drawable, position: 'start' | 'end', head: string): number[] | null {
  const ops = curveOps(shape);
  if (ops.length < 2) return null;
  const index = position === 'start' ? 1 : ops.length - 1;
  const data = ops[index]!.data;
  if (data.length < 6) return null;
  const p3: Pt = [data[4]!, data[5]!];
  const p2: Pt = [data[2]!, data[3]!];
  const p1: Pt = [data[0]!, data[1]!];
  const prev = ops[index - 1]!;
  const p0: Pt = prev.op === 'move' ? [prev.data[0]!, prev.data[1]!] : prev.op === 'bcurveTo' ? [prev.data[4]!, prev.data[5]!] : [0, 0];
  // Excalidraw's own formula (its coefficients run from p3 to p0), kept so the heads match.
  const at = (t: number, i: 0 | 1): number => (1 - t) ** 3 * p3[i] + 3 * t * (1 - t) ** 2 * p2[i] + 3 * t ** 2 * (1 - t) * p1[i] + p0[i] * t ** 3;
  const [x2, y2] = position === 'start' ? p0 : p3;
  const [x1, y1] = [at(0.3, 0), at(0.3, 1)];
  const distance = Math.hypot(x2 - x1, y2 - y1);
  if (distance === 0) return null;
  const [nx, ny] = [(x2 - x1) / distance, (y2 - y1) / distance];
  const pts = e.points;
  const [cx, cy] = position === 'end' ? pts[pts.length - 1]! : pts[0]!;
  const [px, py] = pts.length > 1 ? (position === 'end' ? pts[pts.length - 2]! : pts[1]!) : [0, 0];
  const length = Math.hypot(cx - px, cy - py);
  const minSize = Math.min(sizeOf(head), length * (head === 'diamond' || head === 'diamond_outline' ? 0.25 : 0.5));
  const [xs, ys] = [x2 - nx * minSize, y2 - ny * minSize];
  if (head === 'dot' || head === 'circle' || head === 'circle_outline') return [x2, y2, Math.hypot(ys - y2, xs - x2) + e.strokeWidth - 2];
  const angle = (angleOf(head) * Math.PI) / 180;
  const [x3, y3] = rotate([xs, ys], [x2, y2], -angle);
  const [x4, y4] = rotate([xs, ys], [x2, y2], angle);
  if (head === 'diamond' || head === 'diamond_outline') {
    const [qx, qy] = pts.length > 1 ? (position === 'start' ? pts[1]! : pts[pts.length - 2]!) : [0, 0];
    const [ox, oy] = position === 'start' ? rotate([x2 + minSize * 2, y2], [x2, y2], Math.atan2(qy - y2, qx - x2)) : rotate([x2 - minSize * 2, y2], [x2, y2], Math.atan2(y2 - qy, x2 - qx));
    return [x2, y2, x3, y3, ox, oy, x4, y4];
  }
  return [x2, y2, x3, y3, x4, y4];
}

/**
 * The drawables of one arrowhead, as Excalidraw's renderer makes them: open heads as two rough
 * lines, filled ones as a solid polygon or circle (an outline head filled with the background).
 *
 * @param gen - the rough generator
 * @param e - the arrow
 * @param shape - the arrow's own line, as drawn
 * @param position - which end
 * @param head - the head's name (`arrow`, `bar`, `dot`, `circle`, `triangle`, `diamond`, their
 *   `_outline` forms, `crowfoot_*`); an unknown name draws as `arrow`
 * @param base - the arrow's rough options
 * @param background - the scene's background colour, for outline heads
 */
export function arrowhead(gen: RoughGenerator, e: SceneElement, shape: Drawable, position: 'start' | 'end', head: string, base: Options, background: string): Drawable[] {
  const p = headPoints(e, shape, position, head);
  if (p === null) return [];
  const { strokeLineDash: _dash, ...options } = base;
  const roughness = base.roughness ?? 0;
  const fillOf = (outline: boolean) => ({ ...options, fill: outline ? background : (base.stroke ?? '#1e1e1e'), fillStyle: 'solid' });
  if (head === 'dot' || head === 'circle' || head === 'circle_outline') {
    return [gen.circle(p[0]!, p[1]!, p[2]!, { ...fillOf(head === 'circle_outline'), roughness: Math.min(0.5, roughness) })];
  }
  if (head === 'triangle' || head === 'triangle_outline' || head === 'diamond' || head === 'diamond_outline') {
    const corners: Pt[] = [];
    for (let i = 0; i + 1 < p.length; i += 2) corners.push([p[i]!, p[i + 1]!]);
    corners.push([p[0]!, p[1]!]);
    return [gen.polygon(corners, { ...fillOf(head.endsWith('_outline')), roughness: Math.min(1, roughness) })];
  }
  const [x2, y2, x3, y3, x4, y4] = p as [number, number, number, number, number, number];
  const lineOptions: Options = { ...options, roughness: Math.min(1, roughness) };
  if (e.strokeStyle === 'dotted') {
    const dash = dotted(e.strokeWidth - 1);
    lineOptions.strokeLineDash = [dash[0]!, dash[1]! - 1];
  }
  return [gen.line(x3, y3, x2, y2, lineOptions), gen.line(x4, y4, x2, y2, lineOptions)];
}
