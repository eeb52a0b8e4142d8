import { endingLine } from '../model/ending-line.js';
import { describeEdit } from '../render/describe-edit.js';
import { shortSha } from '../render/short-sha.js';
import type { CanvasList, CanvasListEntry, CanvasListFailure } from '../store/read/list-canvas-entries.js';

// What `canvas list` prints for a reader (docs/cli.md, "list"): its own module, loaded when list
// runs, so that the CLI's entry (and with it `canvas read`) loads no renderer.

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One canvas as lines for a reader (docs/cli.md, "list"). */
function entryLines(c: CanvasListEntry | CanvasListFailure): string[] {
  if ('error' in c) return [`${c.ledger}  ${shortSha(c.revision)}  cannot be read: ${c.error.code}: ${c.error.message}`];
  const q = c.questions;
  const lines = [`${c.ledger}  ${shortSha(c.revision)}  ${q.open} open, ${q.answered} answered`];
  if (c.summary) lines.push(`  ${c.summary.text}`);
  lines.push(`  last edit: ${describeEdit(c.lastEdit)}: ${c.lastEdit.reason}`);
  if (c.ending) {
    const { lead, tail } = endingLine(c.ending);
    lines.push(`  ${lead}${shortSha(c.ending.commit)}${tail}`);
  }
  lines.push(c.lastRunWrite ? `  last write by a run: ${describeEdit(c.lastRunWrite)}` : '  never written by any run');
  if (c.watchers.length > 0) lines.push(`  watched by ${c.watchers.join(', ')}`);
  return lines;
}

/**
 * The list as text: one block per canvas, a blank line between, and the count.
 *
 * @param list - what `listCanvasEntries` returned (not empty)
 * @returns the text, ending in a line feed
 */
export function listLines(list: CanvasList): string {
  const blocks = list.canvases.map((c) => entryLines(c).join('\n'));
  return `${blocks.join('\n\n')}\n\n${plural(list.canvases.length, 'canvas', 'canvases')}\n`;
}
