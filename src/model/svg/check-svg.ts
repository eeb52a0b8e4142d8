import type { Element as XastElement, ElementContent } from 'xast';
import { toXml } from 'xast-util-to-xml';
import { CanvasError } from '../canvas-error.js';
import { compareShapeLists } from './compare-shapes.js';
import { purifySvg, type SvgRemoval, type SvgShape, shapeOfElement } from './svg-purifier.js';

const HINT =
  'remove it: an SVG figure holds no script, event handler (on*), foreignObject, style element or attribute, ' +
  'or animation; href, xlink:href and url() point only at a local #id (an <a> also at http, https or mailto) (docs/svg.md)';

function shapeOfXast(el: XastElement): SvgShape {
  const children: (SvgShape | string)[] = [];
  const push = (c: ElementContent): void => {
    if (c.type === 'element') children.push(shapeOfXast(c));
    else if (c.type === 'text' || c.type === 'cdata') {
      const prev = children[children.length - 1];
      if (typeof prev === 'string') children[children.length - 1] = prev + c.value;
      else if (c.value !== '') children.push(c.value);
    }
  };
  el.children.forEach(push);
  const attributes: [string, string][] = [];
  for (const [k, v] of Object.entries(el.attributes)) if (typeof v === 'string') attributes.push([k, v]);
  return { name: el.name, attributes, children };
}

function describe(r: SvgRemoval): string {
  if (r.attribute === undefined) return `<${r.element}> at ${r.path}`;
  const value = r.value!.length > 60 ? `${r.value!.slice(0, 57)}...` : r.value!;
  return `${r.attribute}=${JSON.stringify(value)} on <${r.element}> at ${r.path}`;
}

/**
 * Refuse an SVG that the hardened sanitizer would change in any way (docs/svg.md): it is
 * read the way a browser reads SVG inline in an HTML page, then sanitized; the input must come
 * through both unchanged. Loads jsdom and DOMPurify on first use.
 *
 * @param svg - the figure's `svg` element (xast, as in `FigureNode.svg`)
 * @param base - the path of the figure, prefixed to every path named (default `/figure`)
 * @throws CanvasError `UNSAFE_SVG` naming each element or attribute removed with its path (up to
 *   ten), or the first place where HTML parsing or sanitizing changes the tree; `data.removed`
 *   lists removals as `{path, element, attribute?, value?}`
 */
export async function checkSvg(svg: XastElement, base = '/figure'): Promise<void> {
  const result = await purifySvg(toXml(svg), base);
  const expected = [shapeOfXast(svg)];
  const misread = compareShapeLists(expected, result.parsed, base);
  if (misread) {
    throw new CanvasError('UNSAFE_SVG', `the SVG reads differently inline in an HTML page: ${misread}`, HINT, { difference: misread });
  }
  if (result.removed.length > 0) {
    const shownRemovals = result.removed.slice(0, 10).map(describe);
    const more = result.removed.length > 10 ? `; and ${result.removed.length - 10} more` : '';
    throw new CanvasError('UNSAFE_SVG', `the SVG holds what the sanitizer removes: ${shownRemovals.join('; ')}${more}`, HINT, {
      removed: result.removed,
    });
  }
  const changed = compareShapeLists(result.parsed, result.svg ? [shapeOfElement(result.svg)] : [], base);
  if (changed) {
    throw new CanvasError('UNSAFE_SVG', `the sanitizer changes the SVG: ${changed}`, HINT, { difference: changed });
  }
}
