/**
 * One DOMPurify instance on one jsdom window per process (docs/svg.md), configured for SVG
 * and hardened (docs/svg.md "The write-time check"). jsdom and DOMPurify are imported on first use only,
 * so a process that never meets an SVG figure never loads them. Parsing a string in jsdom does no
 * I/O (no resource is fetched), so this stays a pure function of its input, as model/ requires.
 */
import type { Config, DOMPurify, RemovedAttribute, RemovedElement } from 'dompurify';
import { CanvasError } from '../canvas-error.js';
import { NODE_ID } from '../patterns.js';
import { guardAttribute } from './guard-attribute.js';

/** The hardened configuration: DOMPurify's SVG profiles, minus styles and animation, plus `use`. */
const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  USE_PROFILES: { svg: true, svgFilters: true },
  FORBID_TAGS: ['style', 'script', 'foreignobject', 'animate', 'animatemotion', 'animatetransform', 'set', 'discard', 'iframe', 'embed', 'object'],
  FORBID_ATTR: ['style'],
  ADD_TAGS: ['use'],
  // `role` is harmless and common on exported SVGs (`role="img"`); the profile lacks it.
  ADD_ATTR: ['role'],
  RETURN_DOM_FRAGMENT: true,
};

/** A plain view of a tree: the same for the stored xast and for a parsed DOM, so they compare. */
export interface SvgShape {
  name: string;
  /** Attribute name and value pairs, in document order. */
  attributes: [string, string][];
  children: (SvgShape | string)[];
}

/** Something the sanitizer removed, located in the tree that was handed in. */
export interface SvgRemoval {
  /** Path of the element removed, or of the element that carried the attribute. */
  path: string;
  /** The element's name, or the carrying element's name for an attribute. */
  element: string;
  /** The attribute's name, for an attribute. */
  attribute?: string;
  /** The attribute's value, for an attribute. */
  value?: string;
}

/** What one sanitizer run saw and kept. */
export interface PurifyResult {
  /** The tree as the HTML parser read the input, before anything was removed. */
  parsed: SvgShape[];
  /** The sanitized `svg` element, or null when none survived. */
  svg: Element | null;
  /** Every removal, with paths into `parsed` (DOMPurify's spurious BODY entry left out). */
  removed: SvgRemoval[];
}

/** Per-run state the hooks fill in; null outside a run that asked for it. */
interface RunContext {
  base: string;
  body: Node | null;
  parsed: SvgShape[];
  paths: WeakMap<Node, string>;
}

let run: RunContext | null = null;
let instance: Promise<DOMPurify> | null = null;

function segment(name: string, id: string | undefined, index: number): string {
  return id !== undefined && NODE_ID.test(id) ? `${name}[@id='${id}']` : `${name}[${index}]`;
}

/**
 * Path segments for the children of one parent, in the form of the schema errors
 * (`name[@id='x']` or `name[n]`); the first top-level `svg` is plain `svg`.
 */
export function childSegments(children: readonly { name: string; id: string | undefined }[], topLevel: boolean): string[] {
  const counts = new Map<string, number>();
  let sawSvg = false;
  return children.map((c) => {
    const index = (counts.get(c.name) ?? 0) + 1;
    counts.set(c.name, index);
    if (topLevel && c.name === 'svg' && !sawSvg) {
      sawSvg = true;
      return 'svg';
    }
    return segment(c.name, c.id, index);
  });
}

/** Read a DOM subtree into shapes, recording each node's path. */
function readDom(parent: Node, path: string, topLevel: boolean, paths: WeakMap<Node, string>): (SvgShape | string)[] {
  const nodes = [...parent.childNodes].filter((n) => n.nodeType === 1 || n.nodeType === 3);
  const elements = nodes.filter((n): n is Element => n.nodeType === 1);
  const segs = childSegments(
    elements.map((e) => ({ name: e.localName, id: e.getAttribute('id') ?? undefined })),
    topLevel,
  );
  const out: (SvgShape | string)[] = [];
  for (const n of nodes) {
    if (n.nodeType === 3) {
      paths.set(n, `${path}/text()`);
      const prev = out[out.length - 1];
      if (typeof prev === 'string') out[out.length - 1] = prev + (n.nodeValue ?? '');
      else out.push(n.nodeValue ?? '');
      continue;
    }
    const e = n as Element;
    const p = `${path}/${segs[elements.indexOf(e)]}`;
    paths.set(e, p);
    out.push({
      name: e.localName,
      attributes: [...e.attributes].map((a) => [a.name, a.value]),
      children: readDom(e, p, false, paths),
    });
  }
  return out;
}

function load(): Promise<DOMPurify> {
  instance ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    // Without a usable window (no document, no DOMParser) DOMPurify hands back a stub that has no
    // hooks and sanitizes nothing: refuse deliberately rather than crash or let an SVG through.
    if (!purify.isSupported || typeof purify.addHook !== 'function') {
      throw new CanvasError(
        'SVG_SANITIZER_UNAVAILABLE',
        'the SVG sanitizer cannot run here: DOMPurify found no usable DOM window (isSupported is false), so no SVG figure can be checked',
        'reinstall the dependencies (npm ci) so jsdom and dompurify match package-lock.json; nothing was written (docs/svg.md)',
      );
    }
    purify.addHook('beforeSanitizeElements', (node) => {
      // The first node of a run is the body holding the input: read it whole, before any removal.
      if (run && run.body === null) {
        run.body = node;
        run.parsed = readDom(node, run.base, true, run.paths).filter((c): c is SvgShape => typeof c !== 'string');
      }
    });
    purify.addHook('uponSanitizeAttribute', (node, event) => {
      if (!guardAttribute(node.localName, event.attrName, event.attrValue)) event.keepAttr = false;
    });
    return purify;
  })().catch((e: unknown) => {
    instance = null;
    throw e;
  });
  return instance;
}

function removal(entry: RemovedElement | RemovedAttribute, paths: WeakMap<Node, string>, base: string): SvgRemoval {
  if ('element' in entry) {
    const node = entry.element;
    const name = node.nodeType === 1 ? (node as Element).localName : node.nodeType === 3 ? 'text()' : node.nodeName.toLowerCase();
    return { path: paths.get(node) ?? base, element: name };
  }
  const from = entry.from;
  return {
    path: paths.get(from) ?? base,
    element: (from as Element).localName,
    attribute: entry.attribute?.name ?? '(unknown)',
    value: entry.attribute?.value ?? '',
  };
}

/**
 * Sanitize SVG markup with the hardened configuration.
 *
 * @param markup - one `svg` element as markup (XML-serialized; read by the HTML parser, as a
 *   browser reads an SVG inline in a page)
 * @param base - the path prefix of the removals, for example `/figure`
 * @returns the parsed input, the sanitized `svg` element and every removal
 * @throws CanvasError `SVG_SANITIZER_UNAVAILABLE` when DOMPurify cannot run on the window
 *   (its `isSupported` is false)
 */
export async function purifySvg(markup: string, base: string): Promise<PurifyResult> {
  const purify = await load();
  const ctx: RunContext = { base, body: null, parsed: [], paths: new WeakMap() };
  run = ctx;
  let fragment: DocumentFragment;
  try {
    fragment = purify.sanitize(markup, CONFIG);
  } finally {
    run = null;
  }
  const removed = purify.removed.filter((r) => !('element' in r && r.element === ctx.body)).map((r) => removal(r, ctx.paths, base));
  const svg = [...fragment.childNodes].find((n): n is Element => n.nodeType === 1 && (n as Element).localName === 'svg') ?? null;
  return { parsed: ctx.parsed, svg, removed };
}

/** Read a sanitized DOM element into a shape (for comparing with the input). */
export function shapeOfElement(e: Element): SvgShape {
  return {
    name: e.localName,
    attributes: [...e.attributes].map((a) => [a.name, a.value]),
    children: readDom(e, '', false, new WeakMap()),
  };
}
