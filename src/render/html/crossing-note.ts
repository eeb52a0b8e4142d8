import type { Element } from 'hast';
import { h } from 'hastscript';
import { placeName } from '../place-name.js';
import { shortSha } from '../short-sha.js';
import type { PageContext } from './page-context.js';

/**
 * The one note a node that crossed between sections shows (`docs/projections.md`, "What all three
 * say"): the reason of the latest move into its current parent, with that commit's short sha. Nodes
 * that never crossed show none.
 *
 * @param id - the node id
 * @param ctx - the page context (its crossings)
 * @returns `[<p class="crossing">]`, or `[]`
 */
export function crossingNote(id: string, ctx: PageContext): Element[] {
  const c = ctx.crossings.get(id);
  if (!c) return [];
  return [
    h('p', { className: ['crossing'] }, [
      h('span', { className: ['crossing-label'] }, `Moved here from ${placeName(ctx.snapshot.canvas, c.from)}:`),
      ' ',
      h('span', { className: ['crossing-reason'] }, c.reason),
      ' ',
      h('code', { className: ['sha'], title: c.commit }, shortSha(c.commit)),
    ]),
  ];
}
