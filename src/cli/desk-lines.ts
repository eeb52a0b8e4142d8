import type { Desk } from '../model/desk.js';
import { formatDate } from '../render/format-date.js';

/**
 * The desk as text (docs/site.md, "The desk"): the questions oldest first, then the proposals
 * with their change and the two commands that decide them.
 *
 * @param desk - the desk, sorted
 * @returns lines, each ending in a line feed
 */
export function deskLines(desk: Desk): string {
  const out: string[] = [];
  const q = desk.questions.length;
  out.push(q === 0 ? 'No open question.' : `${q} open ${q === 1 ? 'question' : 'questions'}, oldest first:`);
  for (const x of desk.questions) {
    out.push(`  ${x.ledger} ${x.node}, asked by ${x.askedBy} on ${formatDate(x.askedAt)} (Canvas-Base: ${x.revision})`, `    ${x.text}`);
  }
  const p = desk.proposals.length;
  out.push(p === 0 ? 'No proposal waiting for a decision.' : `${p} ${p === 1 ? 'proposal' : 'proposals'} waiting for a decision:`);
  for (const x of desk.proposals) {
    out.push(`  ${x.ledger} ${x.id}: ${x.op}${x.node ? ` ${x.node}` : ''}${x.place ? ` ${x.place}` : ''} by ${x.proposedBy}: ${x.why}`);
    for (const line of (x.before ?? '').trimEnd().split('\n').filter(Boolean)) out.push(`    - ${line}`);
    for (const line of (x.after ?? '').trimEnd().split('\n').filter(Boolean)) out.push(`    + ${line}`);
    out.push(`    canvas approve ${x.ledger} ${x.id} --why "..."   or   canvas reject ${x.ledger} ${x.id} --why "..."`);
  }
  return `${out.join('\n')}\n`;
}
