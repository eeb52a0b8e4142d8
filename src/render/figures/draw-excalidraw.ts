// Draw an Excalidraw scene to SVG in process (docs/excalidraw.md, "What is drawn"): each element
// in the scene's order, translated and rotated as Excalidraw places it, with roughjs's generator
// seeded by the element's own seed, so the same scene gives the same bytes on every build.
import type { Element, ElementContent, Properties } from 'hast';
import { s } from 'hastscript';
import * as roughModule from 'roughjs';
import type { Drawable } from 'roughjs/bin/core.js';
import type { RoughGenerator } from 'roughjs/bin/generator.js';
import { readScene } from '../../model/excalidraw/read-scene.js';
import type { Scene, SceneElement } from '../../model/excalidraw/scene-types.js';
import { safeHref } from '../../model/safe-href.js';
import { elementShapes } from './excalidraw-shapes.js';
import { fontStack, type GapFloor, hachureGapFloor, safeColor } from './excalidraw-style.js';

// roughjs is CommonJS: Node hands its module.exports over as the default export, where its
// typings (an ES default export) do not expect it.
const rough = (roughModule as unknown as { default: { generator(): RoughGenerator } }).default;

/** Options of {@link drawExcalidraw}. */
export interface DrawExcalidrawOptions {
  /** The accessible name (`aria-label`); default "Excalidraw sketch with N elements". */
  label?: string;
}

/** The padding around the scene, as Excalidraw's export has it (px). */
const PADDING = 10;

/** Round to two decimals and print without trailing zeros or a negative zero. */
function n(value: number): string {
  const r = Math.round(value * 100) / 100;
  return String(r === 0 ? 0 : r);
}

/** Ascender, descender and units per em of Excalidraw's fonts, for the first line's baseline. */
const METRICS: Readonly<Record<number, [number, number, number]>> = {
  1: [886, -374, 1000],
  2: [1577, -471, 2048],
  3: [1900, -480, 2048],
  5: [886, -374, 1000],
  6: [1011, -353, 1000],
  7: [923, -220, 1000],
  8: [750, -250, 1000],
  9: [1854, -434, 2048],
};

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

type Box = [number, number, number, number];

/** The element's box in its own coordinates (before translation to x, y). */
function localBox(e: SceneElement): Box {
  if (e.points.length > 0 && (e.type === 'line' || e.type === 'arrow' || e.type === 'freedraw')) {
    const xs = e.points.map((p) => p[0]);
    const ys = e.points.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  return [Math.min(0, e.width), Math.min(0, e.height), Math.max(0, e.width), Math.max(0, e.height)];
}

/** The element's box in scene coordinates, its rotation included. */
function sceneBox(e: SceneElement): Box {
  const [x1, y1, x2, y2] = localBox(e);
  const [cx, cy] = [(x1 + x2) / 2, (y1 + y2) / 2];
  const corners = [
    [x1, y1],
    [x2, y1],
    [x2, y2],
    [x1, y2],
  ].map(([x, y]) => [(x! - cx) * Math.cos(e.angle) - (y! - cy) * Math.sin(e.angle) + cx + e.x, (x! - cx) * Math.sin(e.angle) + (y! - cy) * Math.cos(e.angle) + cy + e.y]);
  const top = e.type === 'frame' || e.type === 'magicframe' ? 24 : 0;
  return [Math.min(...corners.map((c) => c[0]!)), Math.min(...corners.map((c) => c[1]!)) - top, Math.max(...corners.map((c) => c[0]!)), Math.max(...corners.map((c) => c[1]!))];
}

function paths(gen: RoughGenerator, d: Drawable): Element[] {
  const o = d.options;
  const out: Element[] = [];
  for (const set of d.sets) {
    const path = gen.opsToPath(set, 2).trim();
    if (set.type === 'path') {
      const p: Properties = { d: path, stroke: o.stroke, strokeWidth: n(o.strokeWidth), fill: 'none' };
      if (o.strokeLineDash) p.strokeDasharray = o.strokeLineDash.map(n).join(' ');
      out.push(s('path', p));
    } else if (set.type === 'fillPath') {
      const p: Properties = { d: path, stroke: 'none', strokeWidth: '0', fill: o.fill ?? 'none' };
      if (d.shape === 'curve' || d.shape === 'polygon') p.fillRule = 'evenodd';
      out.push(s('path', p));
    } else {
      const weight = o.fillWeight < 0 ? o.strokeWidth / 2 : o.fillWeight;
      out.push(s('path', { d: path, stroke: o.fill ?? 'none', strokeWidth: n(weight), fill: 'none' }));
    }
  }
  return out;
}

function textLines(e: SceneElement): Element[] {
  const lines = e.text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROL, '\uFFFD').split('\n');
  const lineHeight = e.fontSize * e.lineHeight;
  const [ascender, descender, em] = METRICS[e.fontFamily] ?? METRICS[2]!;
  const size = e.fontSize / em;
  const first = size * ascender + (lineHeight - size * ascender + size * descender) / 2;
  const rtl = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(e.text);
  const anchor = e.textAlign === 'center' ? 'middle' : e.textAlign === 'right' || rtl ? 'end' : 'start';
  const x = e.textAlign === 'center' ? e.width / 2 : e.textAlign === 'right' ? e.width : 0;
  return lines.map((line, i) =>
    s(
      'text',
      {
        x: n(x),
        y: n(i * lineHeight + first),
        fontFamily: fontStack(e.fontFamily),
        fontSize: `${n(e.fontSize)}px`,
        fill: safeColor(e.strokeColor, '#1e1e1e'),
        textAnchor: anchor,
        direction: rtl ? 'rtl' : 'ltr',
        dominantBaseline: 'alphabetic',
      },
      line,
    ),
  );
}

/** An element the drawer does not draw: its box, dashed, with its type named. */
function placeholder(e: SceneElement, what: string): Element[] {
  const [w, h] = [Math.max(Math.abs(e.width), 1), Math.max(Math.abs(e.height), 1)];
  return [
    s('rect', { x: 0, y: 0, width: n(w), height: n(h), fill: 'none', stroke: '#868e96', strokeWidth: '1', strokeDasharray: '6 4' }),
    s('text', { x: n(w / 2), y: n(h / 2), fontFamily: fontStack(2), fontSize: '14px', fill: '#868e96', textAnchor: 'middle', dominantBaseline: 'middle' }, what),
  ];
}

function image(e: SceneElement, scene: Scene): Element[] {
  const file = e.fileId === null ? undefined : scene.files.get(e.fileId);
  if (!file) return placeholder(e, 'image (no file)');
  const [sx, sy] = e.scale;
  const flip = sx !== 1 || sy !== 1 ? { transform: `translate(${n(sx < 0 ? e.width : 0)} ${n(sy < 0 ? e.height : 0)}) scale(${n(Math.sign(sx) || 1)} ${n(Math.sign(sy) || 1)})` } : {};
  return [s('image', { href: file.dataURL, x: 0, y: 0, width: n(e.width), height: n(e.height), preserveAspectRatio: 'none', ...flip })];
}

function frame(e: SceneElement): Element[] {
  return [
    s('rect', { x: 0, y: 0, width: n(e.width), height: n(e.height), rx: 8, ry: 8, fill: 'none', stroke: '#bbb', strokeWidth: '2' }),
    s('text', { x: 0, y: -6, fontFamily: fontStack(2), fontSize: '14px', fill: '#999999' }, (e.name ?? 'Frame').replace(CONTROL, '\uFFFD')),
  ];
}

function children(gen: RoughGenerator, e: SceneElement, scene: Scene, gap: GapFloor, background: string): Element[] {
  if (e.type === 'text') return textLines(e);
  if (e.type === 'image') return image(e, scene);
  if (e.type === 'frame' || e.type === 'magicframe') return frame(e);
  const shapes = elementShapes(gen, e, gap, background);
  if (shapes === null) return placeholder(e, e.type.replace(CONTROL, '\uFFFD').slice(0, 40));
  const out = shapes.drawables.flatMap((d) => paths(gen, d));
  if (shapes.outline) out.push(s('path', { d: shapes.outline.d, fill: shapes.outline.fill, stroke: 'none' }));
  return out;
}

/**
 * Run a drawing step with `Math.random` drawing from the element's seed. roughjs draws from its
 * seeded generator everywhere but in two places (the jitter of a dots fill, and a hachure step
 * whose seeded draw is 0), which call `Math.random`; the drawer is synchronous, so nothing else
 * runs while the seeded one stands in, and the original is put back whatever happens.
 */
function seeded<T>(seed: number, draw: () => T): T {
  const original = Math.random;
  let state = seed;
  Math.random = () => {
    state = Math.imul(48271, state) & 0x7fffffff;
    return state / 2 ** 31;
  };
  try {
    return draw();
  } finally {
    Math.random = original;
  }
}

function drawElement(gen: RoughGenerator, e: SceneElement, scene: Scene, gap: GapFloor, background: string): Element {
  const [x1, y1, x2, y2] = localBox(e);
  const degrees = (e.angle * 180) / Math.PI;
  const rotation = degrees === 0 ? '' : ` rotate(${n(degrees)} ${n((x1 + x2) / 2)} ${n((y1 + y2) / 2)})`;
  const props: Properties = { transform: `translate(${n(e.x)} ${n(e.y)})${rotation}`, 'data-element': e.id, 'data-element-type': e.type };
  const opacity = Math.min(Math.max(e.opacity, 0), 100);
  if (opacity < 100) props.opacity = n(opacity / 100);
  const g = s(
    'g',
    props,
    seeded(e.seed, () => children(gen, e, scene, gap, background)),
  );
  const href = e.link === null ? null : safeHref(e.link);
  // A link drawn as shapes has no text of its own: its address is its accessible name.
  return href === null ? g : s('a', { href, ariaLabel: `Link: ${e.link}` }, [g]);
}

/**
 * Draw a stored Excalidraw scene (docs/excalidraw.md, "What is drawn"): rectangles, diamonds,
 * ellipses, lines and arrows with their heads, text (bound labels at the place Excalidraw put
 * them), frames with their names, free draw, and images from `files`; any other type as its
 * dashed box with the type named. Deleted elements are not drawn. An element whose link is an
 * http, https or mailto URL is wrapped in an `<a>`; any other link is not drawn as a link.
 *
 * @param source - the figure's scene text
 * @param options - the accessible name
 * @returns a hast `<svg>` with `viewBox`, `width` and `height` in px (the scene's box plus 10 px),
 *   `role="img"` (`role="group"` when it holds a link, each link named `Link: <href>`), an `aria-label`, and one `<g data-element data-element-type>` per element drawn; no `id`
 *   anywhere, so any number of drawings share a page
 * @throws CanvasError what reading the scene throws (`SCENE_JSON`, `SCENE_INVALID`, `SCENE_LIMIT`,
 *   `UNSAFE_SCENE`) for a scene the write path would refuse
 */
export function drawExcalidraw(source: string, options: DrawExcalidrawOptions = {}): Element {
  const scene = readScene(source);
  const shown = scene.elements.filter((e) => !e.isDeleted);
  const gen = rough.generator();
  const gap = hachureGapFloor(shown);
  const background = scene.background === null ? '#ffffff' : safeColor(scene.background, '#ffffff');
  const boxes = shown.map(sceneBox);
  const minX = Math.min(...boxes.map((b) => b[0])) - PADDING;
  const minY = Math.min(...boxes.map((b) => b[1])) - PADDING;
  const width = Math.max(...boxes.map((b) => b[2])) + PADDING - minX;
  const height = Math.max(...boxes.map((b) => b[3])) + PADDING - minY;
  const body: ElementContent[] = [s('rect', { x: n(minX), y: n(minY), width: n(width), height: n(height), fill: background === 'none' ? '#ffffff' : background })];
  for (const e of shown) body.push(drawElement(gen, e, scene, gap, background === 'none' ? '#ffffff' : background));
  return s(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      className: ['canvas-excalidraw'],
      viewBox: `${n(minX)} ${n(minY)} ${n(width)} ${n(height)}`,
      width: n(width),
      height: n(height),
      // An image's content is not read out, so a sketch holding links is a group, and its links reachable.
      role: body.some((c) => c.type === 'element' && c.tagName === 'a') ? 'group' : 'img',
      ariaLabel: options.label ?? `Excalidraw sketch with ${shown.length} element${shown.length === 1 ? '' : 's'}`,
    },
    body,
  );
}
