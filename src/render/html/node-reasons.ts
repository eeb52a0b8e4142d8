import type { Element, ElementContent } from 'hast';
import type { HistoryEntry } from '../../model/snapshot.js';
import { formatDate } from '../format-date.js';
import { shortSha } from '../short-sha.js';
import { element } from './element.js';
import type { PageContext } from './page-context.js';

/** One commit that named the node: `<op> by <author>, <date> UTC: <q>reason</q> [(proposed by ...)] <code>sha</code>`. */
function entry(e: HistoryEntry): Element {
  const children: ElementContent[] = [{ type: 'text', value: `${e.op} by ${e.author}, ${formatDate(e.date)}: ` }, element('q', {}, [e.reason])];
  if (e.proposedBy !== undefined) {
    children.push({ type: 'text', value: ` (proposed by ${e.proposedBy}${e.proposedWhy === undefined ? ')' : ': '}` });
    if (e.proposedWhy !== undefined) children.push(element('q', {}, [e.proposedWhy]), { type: 'text', value: ')' });
  }
  children.push({ type: 'text', value: ' ' }, element('code', {}, [shortSha(e.commit)]));
  return { type: 'element', tagName: 'li', properties: {}, children };
}

/**
 * A node's id, and behind it the node's reasons (`docs/projections.md`, "Why is this here?"): a
 * `<details class="why">` whose `<summary>` is the node's id, shown small beside the node, and
 * whose list holds every commit that named the node, oldest first: operation, author, date,
 * reason (and the proposer with their reason, for an approved proposal) and short sha. A click on
 * the id opens it; it works without a script. A node the snapshot has no history for (a snapshot
 * not read through the store) shows its id as a link to itself, `<a class="nid">`.
 *
 * @param id - the node id
 * @param ctx - the page context (its snapshot's history)
 * @returns the `details` element, or the id's link when the snapshot has no history for the node
 */
export function nodeReasons(id: string, ctx: PageContext): Element {
  const history = Object.hasOwn(ctx.snapshot.history, id) ? ctx.snapshot.history[id]! : [];
  if (history.length === 0) return element('a', { className: ['nid'], href: `#${id}` }, [id]);
  return element('details', { className: ['why'] }, [element('summary', {}, [id]), element('ol', {}, history.map(entry))]);
}
