import { canvasSummary } from '../../model/canvas-summary.js';
import { type DeskProposal, deskQuestionsOf } from '../../model/desk.js';
import { indexNodes } from '../../model/index-nodes.js';
import type { Snapshot } from '../../model/snapshot.js';
import type { IndexEntry } from './render-index.js';

/**
 * A canvas's line on the index (docs/site.md, "The index"): its summary (the line and the whole,
 * docs/projections.md "The summary"), questions, nodes, last edit and latest ending, from its
 * snapshot. Written once for `canvas build` and `canvas serve`.
 *
 * @param snapshot - the canvas at its revision
 * @param proposals - its proposals waiting for a decision, for the desk (docs/site.md, "The desk")
 * @returns the entry
 */
export function indexEntryOf(snapshot: Snapshot, proposals: readonly DeskProposal[] = []): IndexEntry {
  const nodes = [...indexNodes(snapshot.canvas).values()];
  const questions = nodes.filter((e) => e.node.type === 'question');
  const last = snapshot.lastEdit;
  const summary = canvasSummary(snapshot.canvas);
  return {
    ledger: snapshot.ledger,
    revision: snapshot.revision,
    summary: summary ? { text: summary.text, full: summary.full } : null,
    openQuestions: questions.filter((q) => q.node.type === 'question' && !q.node.answered).length,
    questions: questions.length,
    nodes: nodes.length,
    lastEdit: last ? { date: last.date, author: last.author, op: last.op, reason: last.reason } : null,
    ending: snapshot.ending ? { kind: snapshot.ending.kind, commit: snapshot.ending.commit, reason: snapshot.ending.reason, editedSince: snapshot.ending.editedSince } : null,
    desk: { questions: deskQuestionsOf(snapshot), proposals: [...proposals] },
  };
}
