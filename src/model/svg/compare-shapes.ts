import type { SvgShape } from './svg-purifier.js';
import { childSegments } from './svg-purifier.js';

function idOf(shape: SvgShape): string | undefined {
  return shape.attributes.find(([k]) => k === 'id')?.[1];
}

function shown(value: string): string {
  const one = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return JSON.stringify(one);
}

function compareChildren(a: readonly (SvgShape | string)[], b: readonly (SvgShape | string)[], path: string, topLevel: boolean): string | null {
  const elements = a.filter((c): c is SvgShape => typeof c !== 'string');
  const segs = childSegments(
    elements.map((e) => ({ name: e.name, id: idOf(e) })),
    topLevel,
  );
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const here = typeof x === 'object' ? `${path}/${segs[elements.indexOf(x)]}` : path;
    if (x === undefined) {
      return typeof y === 'string' ? `text ${shown(y)} appears in ${path}` : `<${y!.name}> appears in ${path}`;
    }
    if (y === undefined) return typeof x === 'string' ? `text ${shown(x)} in ${path} is lost` : `<${x.name}> at ${here} is lost`;
    if (typeof x === 'string' || typeof y === 'string') {
      if (x === y) continue;
      if (typeof x === 'string' && typeof y === 'string') return `text ${shown(x)} in ${path} becomes ${shown(y)}`;
      return typeof x === 'string' ? `text ${shown(x)} in ${path} becomes <${(y as SvgShape).name}>` : `<${x.name}> at ${here} becomes text`;
    }
    const d = compareShapes(x, y, here);
    if (d) return d;
  }
  return null;
}

/** The first difference between two shapes, named with its path; paths come from `a`. */
function compareShapes(a: SvgShape, b: SvgShape, path: string): string | null {
  if (a.name !== b.name) return `<${a.name}> at ${path} becomes <${b.name}>`;
  const bAttrs = new Map(b.attributes);
  for (const [k, v] of a.attributes) {
    if (!bAttrs.has(k)) return `${k}=${shown(v)} on <${a.name}> at ${path} is lost`;
    if (bAttrs.get(k) !== v) return `${k}=${shown(v)} on <${a.name}> at ${path} becomes ${shown(bAttrs.get(k)!)}`;
  }
  const aNames = new Set(a.attributes.map(([k]) => k));
  for (const [k, v] of b.attributes) {
    if (!aNames.has(k)) return `<${a.name}> at ${path} gains ${k}=${shown(v)}`;
  }
  return compareChildren(a.children, b.children, path, false);
}

/**
 * Find the first difference between two lists of top-level shapes (a figure holds one `svg`),
 * naming it with its path in `a`.
 *
 * @param a - expected
 * @param b - actual
 * @param base - the path of their parent, for example `/figure`
 * @returns a description such as `onload="x" on <rect> at /figure/svg/rect[1] is lost`, or null
 */
export function compareShapeLists(a: readonly SvgShape[], b: readonly SvgShape[], base: string): string | null {
  return compareChildren(a, b, base, true);
}
