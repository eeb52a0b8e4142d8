// One piece: the layout (dagre) and the drawing of its boxes, edges, self-loops and groups share
// one set of geometry helpers and label metrics (docs/diagram.md, "Drawing"); none of them is used
// elsewhere.
import dagre from '@dagrejs/dagre';
import type { Element, ElementContent } from 'hast';
import { s } from 'hastscript';
import { CanvasError } from '../../model/canvas-error.js';
import { parseDiagram } from '../../model/diagram/parse-diagram.js';
import type { Diagram } from '../../model/diagram/diagram-types.js';
import { type WrappedLabel, wrapLabel } from './wrap-label.js';

/** Options of {@link drawDiagram}. */
export interface DrawDiagramOptions {
  /**
   * Prefix of every `id` inside the drawing (the arrowhead marker), so two drawings on one page
   * never collide: `^[A-Za-z][A-Za-z0-9_-]*$`. Default `diagram-`; pass a unique one per figure,
   * for example the figure's node id followed by `-`.
   */
  idPrefix?: string;
  /** The accessible name (`aria-label`); default "Diagram with N nodes and M edges". */
  label?: string;
}

const ID_PREFIX = /^[A-Za-z][A-Za-z0-9_-]*$/;

const NODE_FONT = 14;
const NODE_LINE = 18;
const NODE_PAD_X = 12;
const NODE_PAD_Y = 8;
const NODE_MAX_TEXT = 220;
const NODE_MIN_WIDTH = 48;
const SMALL_FONT = 12;
const SMALL_LINE = 15;
const EDGE_LABEL_MAX = 160;
const EDGE_LABEL_PAD = 3;
const GROUP_PAD = 10;
const GROUP_LABEL_MAX = 200;
const MARGIN = 12;

const INK = '#2d3748';
const LINE = '#4a5568';

/** Round to one decimal and print without a trailing `.0` or a negative zero. */
function n(value: number): string {
  const r = Math.round(value * 10) / 10;
  return String(r === 0 ? 0 : r);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Point {
  x: number;
  y: number;
}

/** The text lines of a label centred on `cx`, the first baseline placed for a box from `top`. */
function textLines(wrapped: WrappedLabel, cx: number, top: number, lineHeight: number, fontSize: number, attrs: Record<string, string>): Element {
  const baseline = (i: number): number => top + (i + 0.5) * lineHeight + fontSize * 0.35;
  if (wrapped.lines.length === 1) {
    return s('text', { x: n(cx), y: n(baseline(0)), textAnchor: 'middle', ...attrs }, wrapped.lines[0]!);
  }
  return s(
    'text',
    { x: n(cx), y: n(baseline(0)), textAnchor: 'middle', ...attrs },
    wrapped.lines.map((line, i) => s('tspan', { x: n(cx), y: n(baseline(i)) }, line)),
  );
}

/** An edge's path through dagre's points (straight ends, rounded bends), or a loop's curve. */
function edgePath(points: Point[], loop: boolean): string {
  const first = points[0]!;
  if (loop) {
    const [, c1, c2, end] = points as [Point, Point, Point, Point];
    return `M${n(first.x)},${n(first.y)}C${n(c1.x)},${n(c1.y)} ${n(c2.x)},${n(c2.y)} ${n(end.x)},${n(end.y)}`;
  }
  let d = `M${n(first.x)},${n(first.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const q = points[i + 1]!;
    d += `Q${n(p.x)},${n(p.y)} ${n((p.x + q.x) / 2)},${n((p.y + q.y) / 2)}`;
  }
  const last = points[points.length - 1]!;
  if (points.length > 1) d += `L${n(last.x)},${n(last.y)}`;
  return d;
}

interface LaidEdge {
  /** dagre's route; for a loop, the four points of one cubic curve. */
  points: Point[];
  loop: boolean;
  /** The centre of the edge's label. */
  label: Point | null;
}

interface Laid {
  width: number;
  height: number;
  nodes: Map<string, Box>;
  groups: Box[];
  edges: LaidEdge[];
}

const LOOP_REACH = 36;

/**
 * A self-loop, drawn by hand (dagre's own points for one do not touch the node): a cubic curve out
 * of the node's right side (direction down) or bottom side (direction right), where dagre keeps
 * room for it, with the label beyond the curve.
 */
function selfLoop(b: Box, direction: Diagram['direction'], text: WrappedLabel | null): LaidEdge {
  const w = text ? text.width / 2 + EDGE_LABEL_PAD : 0;
  const h = text ? (text.lines.length * SMALL_LINE) / 2 + EDGE_LABEL_PAD : 0;
  if (direction === 'down') {
    const x = b.x + b.width;
    const cy = b.y + b.height / 2;
    return {
      points: [
        { x, y: cy - 8 },
        { x: x + LOOP_REACH, y: cy - 22 },
        { x: x + LOOP_REACH, y: cy + 22 },
        { x, y: cy + 8 },
      ],
      loop: true,
      label: text ? { x: x + LOOP_REACH * 0.75 + 4 + w, y: cy } : null,
    };
  }
  const cx = b.x + b.width / 2;
  const y = b.y + b.height;
  return {
    points: [
      { x: cx - 8, y },
      { x: cx - 22, y: y + LOOP_REACH },
      { x: cx + 22, y: y + LOOP_REACH },
      { x: cx + 8, y },
    ],
    loop: true,
    label: text ? { x: cx, y: y + LOOP_REACH * 0.75 + 4 + h } : null,
  };
}

/**
 * Lay the diagram out with dagre and read the boxes back. With `compound`, groups are dagre
 * clusters, so members stay together and others stay out; without, a group is the box around its
 * members wherever they land.
 */
function layout(diagram: Diagram, nodeText: Map<string, WrappedLabel>, edgeText: (WrappedLabel | null)[], groupText: WrappedLabel[], compound: boolean): Laid {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  g.setGraph({ rankdir: diagram.direction === 'right' ? 'LR' : 'TB', nodesep: 36, ranksep: 48, edgesep: 16, marginx: 0, marginy: 0 });
  for (const node of diagram.nodes) {
    const t = nodeText.get(node.id)!;
    g.setNode(`n:${node.id}`, {
      width: Math.max(NODE_MIN_WIDTH, t.width + 2 * NODE_PAD_X),
      height: t.lines.length * NODE_LINE + 2 * NODE_PAD_Y,
    });
  }
  if (compound) {
    diagram.groups.forEach((group, i) => {
      g.setNode(`g:${i}`, {});
      for (const id of group.members) g.setParent(`n:${id}`, `g:${i}`);
    });
  }
  diagram.edges.forEach((edge, i) => {
    const t = edgeText[i];
    const label = t ? { width: t.width + 2 * EDGE_LABEL_PAD, height: t.lines.length * SMALL_LINE + 2 * EDGE_LABEL_PAD, labelpos: 'c' } : {};
    g.setEdge(`n:${edge.from}`, `n:${edge.to}`, label, `e:${i}`);
  });
  dagre.layout(g);

  const box = (key: string): Box => {
    const v = g.node(key) as { x: number; y: number; width: number; height: number };
    return { x: v.x - v.width / 2, y: v.y - v.height / 2, width: v.width, height: v.height };
  };
  const nodes = new Map(diagram.nodes.map((node) => [node.id, box(`n:${node.id}`)]));
  // dagre leaves no room for a group's label: pad its box, and make sure a band for the label
  // stands between the top of the box and the highest member.
  const around = (ids: string[]): Box => {
    const boxes = ids.map((id) => nodes.get(id)!);
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
  };
  const groups = diagram.groups.map((group, i) => {
    const b = compound ? box(`g:${i}`) : around(group.members);
    const text = groupText[i]!;
    const top = Math.min(...group.members.map((id) => nodes.get(id)!.y));
    const y = Math.min(b.y - GROUP_PAD, top - GROUP_PAD - (text.lines.length * SMALL_LINE + 4));
    const width = Math.max(b.width + 2 * GROUP_PAD, text.width + 2 * GROUP_PAD);
    return { x: b.x + b.width / 2 - width / 2, y, width, height: b.y + b.height + GROUP_PAD - y };
  });
  const edges = diagram.edges.map((edge, i): LaidEdge => {
    const t = edgeText[i];
    if (edge.from === edge.to) return selfLoop(nodes.get(edge.from)!, diagram.direction, t ?? null);
    const e = g.edge({ v: `n:${edge.from}`, w: `n:${edge.to}`, name: `e:${i}` }) as { points: Point[]; x?: number; y?: number };
    return { points: e.points, loop: false, label: t && e.x !== undefined && e.y !== undefined ? { x: e.x, y: e.y } : null };
  });

  // Everything drawn, shifted so the top-left corner sits at the margin.
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  const extend = (x0: number, y0: number, x1: number, y1: number): void => {
    minX = Math.min(minX, x0);
    minY = Math.min(minY, y0);
    maxX = Math.max(maxX, x1);
    maxY = Math.max(maxY, y1);
  };
  for (const b of [...nodes.values(), ...groups]) extend(b.x, b.y, b.x + b.width, b.y + b.height);
  edges.forEach((e, i) => {
    for (const p of e.points) extend(p.x, p.y, p.x, p.y);
    const t = edgeText[i];
    if (e.label && t) {
      const w = t.width / 2 + EDGE_LABEL_PAD;
      const h = (t.lines.length * SMALL_LINE) / 2 + EDGE_LABEL_PAD;
      extend(e.label.x - w, e.label.y - h, e.label.x + w, e.label.y + h);
    }
  });
  const dx = MARGIN - minX;
  const dy = MARGIN - minY;
  const shift = (b: Box): Box => ({ ...b, x: b.x + dx, y: b.y + dy });
  const move = (p: Point): Point => ({ x: p.x + dx, y: p.y + dy });
  return {
    width: maxX - minX + 2 * MARGIN,
    height: maxY - minY + 2 * MARGIN,
    nodes: new Map([...nodes].map(([id, b]) => [id, shift(b)])),
    groups: groups.map(shift),
    edges: edges.map((e) => ({ points: e.points.map(move), loop: e.loop, label: e.label ? move(e.label) : null })),
  };
}

/**
 * Lay out with groups as clusters; should dagre fail on the compound graph (it can, rarely, throw
 * "Not possible to find intersection inside of the rectangle" on large clustered graphs), lay out
 * without clusters so a valid diagram always draws. Both are deterministic.
 */
function layoutSafely(diagram: Diagram, nodeText: Map<string, WrappedLabel>, edgeText: (WrappedLabel | null)[], groupText: WrappedLabel[]): Laid {
  if (diagram.groups.length > 0) {
    try {
      return layout(diagram, nodeText, edgeText, groupText, true);
    } catch {
      // fall through to the flat layout
    }
  }
  try {
    return layout(diagram, nodeText, edgeText, groupText, false);
  } catch (e) {
    throw new CanvasError('INTERNAL', `the diagram layout failed: ${(e as Error).message}`, 'report the diagram source; as a workaround, simplify it');
  }
}

/**
 * Draw a Canvas Diagram 1 source as an SVG element (`docs/diagram.md`, "Drawing"): laid out in
 * process by dagre, groups as labelled boxes, edges as paths (`->` with an arrowhead, `--`
 * without), every label a text node (so serializing escapes it). Deterministic: the same source and
 * options give the same tree and, through hast-util-to-html, the same bytes; coordinates are
 * rounded to 0.1 px. Colours are presentation attributes, which page CSS may override through the
 * classes `canvas-diagram`, `diagram-node`, `diagram-edge`, `diagram-group`.
 *
 * @param source - the figure's source text
 * @param options - `idPrefix` for the ids inside (default `diagram-`), `label` for `aria-label`
 * @returns a hast `svg` element with `width`, `height`, `viewBox`, `role="img"` and `aria-label`
 * @throws CanvasError `DIAGRAM_SYNTAX` when the source does not parse; `USAGE` for a bad `idPrefix`
 */
export function drawDiagram(source: string, options: DrawDiagramOptions = {}): Element {
  const idPrefix = options.idPrefix ?? 'diagram-';
  if (!ID_PREFIX.test(idPrefix)) {
    throw new CanvasError('USAGE', `idPrefix "${idPrefix}" must match ${ID_PREFIX}`, 'pass a prefix of letters, digits, _ and -, starting with a letter');
  }
  const diagram = parseDiagram(source);
  const nodeText = new Map(diagram.nodes.map((node) => [node.id, wrapLabel(node.label, NODE_FONT, NODE_MAX_TEXT)]));
  const edgeText = diagram.edges.map((e) => (e.label === null ? null : wrapLabel(e.label, SMALL_FONT, EDGE_LABEL_MAX)));
  const groupText = diagram.groups.map((group) => wrapLabel(group.label, SMALL_FONT, GROUP_LABEL_MAX));
  const laid = layoutSafely(diagram, nodeText, edgeText, groupText);
  const marker = `${idPrefix}arrow`;

  const groups: ElementContent[] = diagram.groups.map((_, i) => {
    const b = laid.groups[i]!;
    return s('g', { className: ['diagram-group'] }, [
      s('rect', { x: n(b.x), y: n(b.y), width: n(b.width), height: n(b.height), rx: '8', fill: '#f7fafc', stroke: '#a0aec0', strokeDasharray: '4 3' }),
      textLines(groupText[i]!, b.x + b.width / 2, b.y + 2, SMALL_LINE, SMALL_FONT, { fontSize: String(SMALL_FONT), fontWeight: '600', fill: LINE }),
    ]);
  });
  const edges: ElementContent[] = diagram.edges.map((edge, i) => {
    const e = laid.edges[i]!;
    const parts: ElementContent[] = [
      s('path', {
        d: edgePath(e.points, e.loop),
        fill: 'none',
        stroke: LINE,
        strokeWidth: '1.5',
        ...(edge.directed ? { markerEnd: `url(#${marker})` } : {}),
      }),
    ];
    const t = edgeText[i];
    if (t && e.label) {
      const w = t.width + 2 * EDGE_LABEL_PAD;
      const h = t.lines.length * SMALL_LINE + 2 * EDGE_LABEL_PAD;
      parts.push(
        s('rect', { x: n(e.label.x - w / 2), y: n(e.label.y - h / 2), width: n(w), height: n(h), fill: '#ffffff' }),
        textLines(t, e.label.x, e.label.y - h / 2 + EDGE_LABEL_PAD, SMALL_LINE, SMALL_FONT, { fontSize: String(SMALL_FONT), fill: INK }),
      );
    }
    return s('g', { className: ['diagram-edge'], dataFrom: edge.from, dataTo: edge.to }, parts);
  });
  const nodes: ElementContent[] = diagram.nodes.map((node) => {
    const b = laid.nodes.get(node.id)!;
    return s('g', { className: ['diagram-node'], dataNode: node.id }, [
      s('rect', { x: n(b.x), y: n(b.y), width: n(b.width), height: n(b.height), rx: '6', fill: '#ffffff', stroke: LINE, strokeWidth: '1.5' }),
      textLines(nodeText.get(node.id)!, b.x + b.width / 2, b.y + NODE_PAD_Y, NODE_LINE, NODE_FONT, { fill: INK }),
    ]);
  });

  const width = n(laid.width);
  const height = n(laid.height);
  const plural = (k: number, word: string): string => `${k} ${word}${k === 1 ? '' : 's'}`;
  return s(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      ariaLabel: options.label ?? `Diagram with ${plural(diagram.nodes.length, 'node')} and ${plural(diagram.edges.length, 'edge')}`,
      className: ['canvas-diagram'],
      fontFamily: 'system-ui, sans-serif',
      fontSize: String(NODE_FONT),
    },
    [
      s('defs', [
        s('marker', { id: marker, viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '10', markerHeight: '10', markerUnits: 'userSpaceOnUse', orient: 'auto' }, [
          s('path', { d: 'M0,0L10,5L0,10z', fill: LINE }),
        ]),
      ]),
      s('g', { className: ['diagram-groups'] }, groups),
      s('g', { className: ['diagram-edges'] }, edges),
      s('g', { className: ['diagram-nodes'] }, nodes),
    ],
  );
}
