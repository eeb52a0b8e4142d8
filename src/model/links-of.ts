import { type CanvasLinkTarget, canvasLinkTarget } from './canvas-link.js';
import { judgedScheme, safeHref } from './safe-href.js';
import type { Canvas, CanvasNode } from './types.js';

/** One link node of a canvas, as the link graph holds it (docs/links.md, "Canvas links"). */
export interface LinkOut {
  /** The link node's id. */
  node: string;
  /** Its href as written. */
  href: string;
  label: string;
  /**
   * `web` for an `http`, `https` or `mailto` link (docs/projections.md, "What all three say"),
   * `canvas` for an href whose scheme is `canvas` (well-formed or not), `other` for the rest.
   */
  kind: 'web' | 'canvas' | 'other';
  /** For a well-formed `canvas:` href: the canvas and node it names. */
  target?: CanvasLinkTarget;
}

/**
 * Every link node of a canvas, in document order, each with its kind and, for a link to another
 * canvas, its target (docs/links.md, "Canvas links").
 *
 * @param canvas - the tree
 * @returns the links, in document order
 */
export function linksOf(canvas: Canvas): LinkOut[] {
  const out: LinkOut[] = [];
  const walk = (children: readonly CanvasNode[]): void => {
    for (const n of children) {
      if (n.type === 'section') walk(n.children);
      if (n.type !== 'link') continue;
      const target = canvasLinkTarget(n.href);
      const kind = target || judgedScheme(n.href) === 'canvas' ? 'canvas' : safeHref(n.href) !== null ? 'web' : 'other';
      out.push({ node: n.id, href: n.href, label: n.label, kind, ...(target ? { target } : {}) });
    }
  };
  walk(canvas.children);
  return out;
}
