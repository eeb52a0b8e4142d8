/**
 * The structured results of the watch tools (docs/mcp.md "Watches and the inbox"): what
 * canvas_watch, canvas_unwatch and canvas_inbox return as `structuredContent`, beside the same
 * value as text. Their refusals are the error shape.
 */
import { z } from 'zod';
import { EDIT_RECORD, NODE_STATE, SHA } from './outcome-schemas.js';

const WATCH = z.strictObject({ who: z.string(), ledger: z.string(), since: z.string(), cursor: SHA.nullable() });

/** canvas_watch and canvas_unwatch: whether the caller watches the canvas now, and the watch. */
export const WatchResultSchema = z.strictObject({
  ledger: z.string(),
  who: z.string(),
  watching: z.boolean(),
  changed: z.boolean(),
  watch: WATCH.nullable(),
});

/** One change on a watched canvas (docs/store.md, "Watches and the inbox"). */
const INBOX_EVENT = EDIT_RECORD.extend({
  ledger: z.string(),
  diff: z
    .strictObject({ node: z.string(), change: z.enum(['inserted', 'removed', 'replaced', 'moved']), before: NODE_STATE.nullable(), after: NODE_STATE.nullable() })
    .nullable(),
  proposal: z.strictObject({ id: z.string(), proposedBy: z.string().optional() }).optional(),
  grant: z.string().optional(),
  ending: z.strictObject({ kind: z.enum(['frozen', 'abandoned']), report: z.string() }).optional(),
});

/** canvas_inbox: the events, the proposals waiting, each watched canvas, and the cursors the call moved first. */
export const InboxResultSchema = z.strictObject({
  who: z.string(),
  events: z.array(INBOX_EVENT),
  waiting: z.array(
    z.strictObject({
      ledger: z.string(),
      id: z.string(),
      op: z.enum(['insert', 'replace', 'remove', 'move']),
      node: z.string().nullable(),
      proposedBy: z.string(),
      why: z.string(),
      base: SHA,
    }),
  ),
  canvases: z.array(z.strictObject({ ledger: z.string(), cursor: SHA.nullable(), revision: SHA, events: z.number().int().nonnegative(), cursorLost: z.boolean() })),
  acked: z.array(z.strictObject({ ledger: z.string(), cursor: SHA })),
});
