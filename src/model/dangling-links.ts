import type { LinkOut } from './links-of.js';

/** What the link check knows of one canvas at its current revision (docs/links.md, "Dangling links"). */
export interface LinkedCanvas {
  /** The ids of its nodes (only asked whether it has one), or null when its document could not be read (its nodes are not judged). */
  nodes: Pick<ReadonlySet<string>, 'has'> | null;
  /** Its link nodes ({@link linksOf}). */
  links: readonly LinkOut[];
}

/** A `canvas:` link that points at nothing (docs/links.md, "Dangling links"): a warning, never a failure. */
export interface LinkWarning {
  /** The canvas holding the link. */
  ledger: string;
  /** The link node's id. */
  node: string;
  href: string;
  /** `no-canvas`: no canvas has that ledger id; `no-node`: that canvas has no such node; `malformed`: not `canvas:<ledger>[#<node>]`. */
  problem: 'no-canvas' | 'no-node' | 'malformed';
  message: string;
}

/**
 * Judge the `canvas:` links of some canvases against every canvas at its current revision
 * (docs/links.md, "Dangling links").
 *
 * @param canvases - every canvas of the workspace, by ledger id
 * @param from - the canvases whose links are judged, in the order to report them
 * @returns one warning per link that points at no canvas, at no node of its canvas, or is malformed
 */
export function danglingLinks(canvases: ReadonlyMap<string, LinkedCanvas>, from: Iterable<string>): LinkWarning[] {
  const out: LinkWarning[] = [];
  for (const ledger of from) {
    for (const l of canvases.get(ledger)?.links ?? []) {
      if (l.kind !== 'canvas') continue;
      const warn = (problem: LinkWarning['problem'], message: string) => out.push({ ledger, node: l.node, href: l.href, problem, message });
      const t = l.target;
      if (!t) {
        warn('malformed', `link ${l.node} of canvas ${ledger} has the href ${JSON.stringify(l.href)}, which is not canvas:<ledger> or canvas:<ledger>#<node>`);
        continue;
      }
      const other = canvases.get(t.ledger);
      if (!other) warn('no-canvas', `link ${l.node} of canvas ${ledger} points at canvas ${t.ledger}, which does not exist`);
      else if (t.node !== null && other.nodes !== null && !other.nodes.has(t.node)) {
        warn('no-node', `link ${l.node} of canvas ${ledger} points at node ${t.node} of canvas ${t.ledger}, which has no such node at its revision`);
      }
    }
  }
  return out;
}
