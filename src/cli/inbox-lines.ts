import { describeEdit } from '../render/describe-edit.js';
import type { Inbox, InboxEvent } from '../store/read/read-inbox.js';

// What `canvas inbox` prints for a reader (docs/cli.md, "inbox"): its own module, loaded when the
// inbox runs.

function eventLines(e: InboxEvent): string[] {
  const lines = [`${e.ledger}  ${e.commit.slice(0, 12)}  ${describeEdit(e)}: ${e.reason}`];
  if (e.ending) lines.push(`  final report (${e.ending.kind}): ${e.ending.report}`);
  if (e.grant) lines.push(`  grant: ${e.grant}`);
  if (e.proposal) lines.push(`  proposal ${e.proposal.id}${e.proposal.proposedBy ? `, proposed by ${e.proposal.proposedBy}` : ''}`);
  if (e.diff) {
    const d = e.diff;
    const place = d.before && d.after && d.before.parent !== d.after.parent ? ` from ${d.before.parent} to ${d.after.parent}` : '';
    lines.push(`  ${d.change} ${d.node}${place}`);
    if (d.before) lines.push(`    - ${d.before.xml.split('\n').join('\n      ')}`);
    if (d.after) lines.push(`    + ${d.after.xml.split('\n').join('\n      ')}`);
  }
  return lines;
}

/**
 * The inbox as text: each change, oldest first, then the proposals waiting for a decision, then
 * a count and what to do next.
 *
 * @param inbox - what `readInbox` returned
 * @param acked - whether the run acknowledges what it printed (`--ack`)
 * @returns the text, ending in a line feed
 */
export function inboxLines(inbox: Inbox, acked: boolean): string {
  if (inbox.canvases.length === 0) return `${inbox.who} watches no canvas: canvas watch <ledger> starts a watch, and every write makes one.\n`;
  const blocks = inbox.events.map((e) => eventLines(e).join('\n'));
  if (inbox.waiting.length > 0) {
    blocks.push(
      [
        `Waiting for a decision by ${inbox.who}:`,
        ...inbox.waiting.map(
          (p) =>
            `  ${p.ledger}  proposal ${p.id}: ${p.op}${p.node ? ` ${p.node}` : ''} by ${p.proposedBy}: ${p.why}\n    canvas approve ${p.ledger} ${p.id} --why "..."   or   canvas reject ${p.ledger} ${p.id} --why "..."`,
        ),
      ].join('\n'),
    );
  }
  const n = inbox.events.length;
  const on = `${inbox.canvases.length} ${inbox.canvases.length === 1 ? 'canvas' : 'canvases'} ${inbox.who} watches`;
  if (n === 0) blocks.push(`Nothing new on the ${on}.`);
  else blocks.push(`${n} ${n === 1 ? 'change' : 'changes'} on the ${on}${acked ? ': marked as read' : '; canvas inbox --ack marks them as read'}.`);
  return `${blocks.join('\n\n')}\n`;
}
