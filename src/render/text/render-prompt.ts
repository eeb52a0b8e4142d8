import { endingLine } from '../../model/ending-line.js';
import type { Crossing, Snapshot } from '../../model/snapshot.js';
import { serializeCanvas } from '../../model/serialize-canvas.js';
import type { CanvasNode } from '../../model/types.js';
import { describeEdit } from '../describe-edit.js';
import { orderQuestions } from '../order-questions.js';
import { shortSha } from '../short-sha.js';
import { renderLines } from './render-lines.js';
import type { TextContext } from './text-context.js';
import { isolateBidi } from '../isolate-bidi.js';

/**
 * The budget of a canvas in a prompt (`docs/projections.md`, "The prompt"): characters of `canvas
 * read` output.
 */
const BUDGET = 20_000;

/** How many recent edits a prompt shows by default. */
const EDITS = 10;

/** Options of {@link renderPrompt}. */
export interface PromptOptions {
  /** How many recent edits to show, newest first (default 10; the snapshot must hold them). */
  edits?: number | undefined;
  /** The size budget in characters of `canvas read` output (default 20,000). */
  budget?: number | undefined;
  /**
   * Who reads it (`docs/projections.md`, "The prompt"): `cli` (default) names the commands and
   * their flags, `mcp` the MCP server's tools and their arguments.
   */
  surface?: 'cli' | 'mcp' | undefined;
}

/** How the editing lines name the verbs, the reason, the base and a read, per surface. */
const SPEECH = {
  cli: {
    verbs: (ledger: string) => `\`canvas insert|replace|remove|move ${ledger} ...\``,
    why: '--why',
    base: (revision: string) => `--base ${revision}`,
    read: (ledger: string) => `\`canvas read ${ledger}\``,
  },
  mcp: {
    verbs: () => 'canvas_insert, canvas_replace, canvas_remove and canvas_move',
    why: '`why`',
    base: (revision: string) => `pass it as \`base\` (${revision})`,
    read: (ledger: string) => `call canvas_read with ledger ${ledger}`,
  },
} as const;

/** Characters as a person counts them: code points, not UTF-16 units. */
function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

/**
 * Measure a snapshot the way the budget is written (`docs/projections.md`, "The prompt"): the
 * `canvas read` output, the `Canvas-Base:` line plus the canonical XML.
 *
 * @param snapshot - the snapshot
 * @returns its size in characters (code points)
 */
function readSize(snapshot: Snapshot): number {
  return charCount(`Canvas-Base: ${snapshot.revision}\n${serializeCanvas(snapshot.canvas)}`);
}

/**
 * Render what a step gets instead of the conversation (`docs/projections.md`, "The prompt"): the
 * revision to write against (`Canvas-Base: <sha>`), the discipline (one node per edit, a reason
 * that says why, never quietly answer an open question) with the open questions listed, the
 * document as readable text with node ids, and the last N edits with their reasons. A canvas over
 * the budget (measured on the `canvas read` output) is sent whole, with a notice at the top that
 * resolving it is the step's first work; nothing is ever truncated.
 *
 * @param snapshot - one read of a canvas at one revision (from `readSnapshot`, with `edits` at
 *   least the number shown here)
 * @param options - `edits` (default 10), `budget` in characters (default 20,000)
 * @returns the prompt text, ending in a line feed; the same snapshot gives the same text
 * @throws CanvasError `SCHEMA` for a node type schema 2 does not have
 */
export function renderPrompt(snapshot: Snapshot, options: PromptOptions = {}): string {
  const budget = options.budget ?? BUDGET;
  const say = SPEECH[options.surface ?? 'cli'];
  const edits = snapshot.recentEdits.slice(0, options.edits ?? EDITS);
  const crossings = new Map<string, Crossing>(snapshot.crossings.map((c) => [c.node, c]));
  const renderChildren = (children: readonly CanvasNode[], depth: number): string[] => children.flatMap((child) => renderLines(child, { ...ctx, depth }));
  const ctx: TextContext = { crossings, depth: 0, renderChildren };
  const { ledger, revision } = snapshot;
  const size = readSize(snapshot);
  const open = orderQuestions(snapshot.canvas).filter((q) => !q.answered);
  const out: string[] = [];

  if (size > budget) {
    out.push(
      `NOTICE: this canvas is over its size budget: ${size} characters of \`canvas read\` output against a budget of ${budget}.`,
      'It is given to you whole; nothing is cut. Resolving it is your first work, before anything else in this step:',
      'settle what can be settled (replace an options table with the decision taken), remove what was ruled out or',
      'superseded (its history keeps it), fold repetition into one node. One node per edit, each with a reason.',
      '',
    );
  }
  out.push(`Canvas-Base: ${revision}`, '');
  out.push(
    `This is the canvas of ledger ${ledger}: the current shared understanding of this task (the problem, what was`,
    'decided, what is still open, what was ruled out and why). Work from it, not from what a conversation said.',
  );
  const ending = snapshot.ending;
  if (ending) {
    const { lead, tail } = endingLine({ ...ending, reason: isolateBidi(ending.reason) });
    out.push(`This canvas was ${lead}${ending.commit}${tail}`, `${ending.kind === 'frozen' ? 'A frozen' : 'An abandoned'} canvas still takes edits on the ordinary terms.`);
  }
  out.push(
    '',
    'How to edit it:',
    `- One node per edit. ${say.verbs(ledger)} each names exactly one node; never rewrite the document.`,
    `- Every edit carries ${say.why}: one line that says why (the decision and its evidence: a PR, a file and line, a verdict), not what changed.`,
    `- Write against the revision above: ${say.base(revision)}. If an edit is refused as stale, read again (${say.read(ledger)}) and decide again.`,
    '- Never quietly answer an open question. If your work settles one, replace that question (same id) with the answer and say in',
    `  ${say.why} what settled it; otherwise leave it open. New doubt becomes a new question node; do not resolve it on your own.`,
    '',
  );
  if (open.length === 0) {
    out.push('Open questions: none.');
  } else {
    out.push(
      `Open questions (${open.length}):`,
      ...open.flatMap((q) =>
        isolateBidi(q.text)
          .split('\n')
          .map((l, i) => (i === 0 ? `- [${q.id}] ${l}` : `    ${l}`)),
      ),
    );
  }
  out.push('', `The document (node ids in brackets; sections indent their children):`);
  const body = renderChildren(snapshot.canvas.children, 0);
  out.push(...(body.length > 0 ? body : ['(empty: the canvas has no nodes yet)']));
  out.push('', edits.length === 0 ? 'Recent edits: none.' : `Recent edits (newest first, ${edits.length}):`);
  for (const e of edits) out.push(`- ${shortSha(e.commit)} ${describeEdit(e)}: ${isolateBidi(e.reason)}`);
  return `${out.join('\n')}\n`;
}
