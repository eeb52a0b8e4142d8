import type { Command } from 'commander';
import type { Desk } from '../../model/desk.js';
import { formatDate } from '../../render/format-date.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** The desk as text: the questions oldest first, then the proposals with their change and the two commands that decide them. */
function deskLines(desk: Desk): string {
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

/** Register desk (docs/cli.md, "desk"). */
export function registerDeskCommand(program: Command): void {
  withGlobal(program.command('desk'))
    .description('what waits for a person: every open question (oldest first) and every proposal waiting for a decision, across the canvases')
    .action(async (o: GlobalOptions) => {
      const { readDesk } = await import('../../store/read/read-desk.js');
      const desk = await readDesk(workspaceOf(o));
      if (o.json) {
        printJson(desk);
        return;
      }
      process.stdout.write(deskLines(desk));
    });
}
