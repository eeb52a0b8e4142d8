import { isLedgerId } from './check-ledger-id.js';
import { NODE_ID } from './patterns.js';

/** Where a `canvas:` link points (docs/links.md, "Canvas links"): a canvas, or one of its nodes. */
export interface CanvasLinkTarget {
  /** The ledger id of the canvas linked to. */
  ledger: string;
  /** The node linked to, or null for the canvas as a whole. */
  node: string | null;
}

/**
 * Read a link's href as a link between canvases (docs/links.md, "Canvas links"): exactly
 * `canvas:<ledger>` or `canvas:<ledger>#<node>`, as written (no space, lower-case scheme), with a
 * valid ledger id (docs/store.md, "Workspace") and node id (docs/schema.md).
 *
 * @param href - the link node's `href`, as stored
 * @returns the canvas and node it names, or null when it is not such a link (another scheme, or a
 *   malformed `canvas:` href, which the projections show as text)
 */
export function canvasLinkTarget(href: string): CanvasLinkTarget | null {
  const m = /^canvas:([^#]*)(?:#(.*))?$/s.exec(href);
  if (!m || !isLedgerId(m[1])) return null;
  const node = m[2];
  if (node !== undefined && !NODE_ID.test(node)) return null;
  return { ledger: m[1], node: node ?? null };
}
