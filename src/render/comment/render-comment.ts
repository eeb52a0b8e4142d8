import type { List, Paragraph, PhrasingContent, Root, RootContent, Text } from 'mdast';
import { type Handle, type State, toMarkdown } from 'mdast-util-to-markdown';
import { endingLine } from '../../model/ending-line.js';
import type { Crossing, Snapshot } from '../../model/snapshot.js';
import type { CanvasNode } from '../../model/types.js';
import { isolateBidi } from '../isolate-bidi.js';
import { describeEdit } from '../describe-edit.js';
import { orderQuestions } from '../order-questions.js';
import { questionMarker } from '../question-marker.js';
import { shortSha } from '../short-sha.js';
import type { CommentContext } from './comment-context.js';
import { renderBlock } from './render-block.js';

function paragraph(...children: PhrasingContent[]): Paragraph {
  return { type: 'paragraph', children };
}

function text(value: string): Text {
  return { type: 'text', value };
}

function strong(value: string): PhrasingContent {
  return { type: 'strong', children: [text(value)] };
}

function header(snapshot: Snapshot): RootContent[] {
  const out: RootContent[] = [paragraph(strong(`Canvas ${snapshot.ledger}`)), paragraph(text('Revision: '), { type: 'inlineCode', value: snapshot.revision })];
  const ending = snapshot.ending;
  if (ending) {
    const { lead, tail } = endingLine(ending);
    out.push(paragraph(strong(ending.kind === 'frozen' ? 'Frozen.' : 'Abandoned.'), text(` This canvas was ${lead}`), { type: 'inlineCode', value: ending.commit }, text(tail)));
  }
  const last = snapshot.lastEdit;
  if (last) {
    out.push(paragraph(text(`Last edit: ${describeEdit(last)}: ${last.reason} `), { type: 'inlineCode', value: shortSha(last.commit) }));
  }
  return out;
}

function questionIndex(snapshot: Snapshot): RootContent[] {
  const questions = orderQuestions(snapshot.canvas);
  const open = questions.filter((q) => !q.answered).length;
  const title = paragraph(strong('Questions'), text(questions.length === 0 ? ': none.' : `: ${open} open, ${questions.length - open} answered.`));
  if (questions.length === 0) return [title];
  const list: List = {
    type: 'list',
    ordered: false,
    spread: false,
    children: questions.map((q) => ({
      type: 'listItem',
      spread: false,
      children: [paragraph(strong(questionMarker(q)), text(' '), { type: 'inlineCode', value: q.id }, text(`: ${q.text}`))],
    })),
  };
  return [title, list];
}

/**
 * Serialize text with every `<` that could open a tag written as a character reference, not a
 * backslash escape: the comment's transport treats a body holding anything shaped like a tag as
 * HTML and skips its Markdown conversion, and `\<b>` still holds `<b>`. Text holding a
 * bidirectional control is isolated ({@link isolateBidi}), so it cannot reorder what surrounds it.
 */
const textHandler: Handle = (node: Text, _parent, state: State, info) => {
  const value = isolateBidi(node.value);
  const all = state.unsafe;
  state.unsafe = patternsIn(all, `${info.before}${value}${info.after}`);
  try {
    return state.safe(value, { ...info, encode: ['<'] });
  } finally {
    state.unsafe = all;
  }
};

/** Each serializer's unsafe patterns (one list per `toMarkdown` call), with the characters they escape. */
const charactersOf = new WeakMap<State['unsafe'], string[]>();

/**
 * The unsafe patterns whose character occurs in `subject` (a text with the characters before and
 * after it), in their order. Every pattern's expression holds its character literally, so a
 * pattern left out could not have matched: the escaping stays the library's, character for
 * character, without running some forty expressions and scope checks over every text
 * (docs/performance.md, "The site build's floor").
 */
function patternsIn(unsafe: State['unsafe'], subject: string): State['unsafe'] {
  let characters = charactersOf.get(unsafe);
  if (!characters) {
    characters = [...new Set(unsafe.map((p) => p.character))];
    charactersOf.set(unsafe, characters);
  }
  const present = new Set(characters.filter((c) => subject.includes(c)));
  return unsafe.filter((p) => present.has(p.character));
}

/**
 * A word-initial `@` (at the start of the text or after anything but a letter, digit, mark or a
 * character of an e-mail address's local part) is written `\@`: the Basecamp CLI reads `@name`
 * in the comment's Markdown as a mention and notifies that person, and CommonMark reads `\@` as a
 * plain `@`. An e-mail address (`leo@example.com`) stays as it is (docs/projections.md, "The comment").
 */
const WORD_INITIAL_AT = { character: '@', before: '^|[^\\p{L}\\p{N}\\p{M}._%+\\-]', unicode: true };

/**
 * Render a snapshot as the ledger row's Basecamp comment (`docs/projections.md`, "The comment"): an
 * mdast tree serialized by mdast-util-to-markdown. Block-level Markdown only: paragraphs, bullet
 * lists (numbered for an ordered list), and fenced code for a figure's source. Section titles are
 * bold lines; a table is unfolded into its header line and one bullet per row; no raw HTML anywhere
 * (text that looks like HTML comes out escaped), and no word-initial `@` that could mention someone
 * (written `\@`). It carries the revision exactly as the page shows it, the frozen marker, the last
 * edit, the question index, each question's marker, and each crossing's reason and short sha.
 *
 * @param snapshot - one read of a canvas at one revision (from `readSnapshot`)
 * @returns the Markdown, ending in a line feed; the same snapshot gives the same bytes
 * @throws CanvasError `SCHEMA` for a node type schema 2 does not have
 */
export function renderComment(snapshot: Snapshot): string {
  const crossings = new Map<string, Crossing>(snapshot.crossings.map((c) => [c.node, c]));
  const renderChildren = (children: readonly CanvasNode[], titles: readonly string[]): RootContent[] => children.flatMap((child) => renderBlock(child, { ...ctx, titles }));
  const ctx: CommentContext = { snapshot, crossings, titles: [], renderChildren };
  const body = renderChildren(snapshot.canvas.children, []);
  const tree: Root = {
    type: 'root',
    children: [...header(snapshot), ...questionIndex(snapshot), ...(body.length > 0 ? body : [paragraph(text('This canvas is empty.'))])],
  };
  return toMarkdown(tree, {
    bullet: '-',
    bulletOther: '*',
    emphasis: '_',
    strong: '*',
    fence: '`',
    fences: true,
    listItemIndent: 'one',
    resourceLink: true,
    rule: '-',
    handlers: { text: textHandler },
    unsafe: [WORD_INITIAL_AT],
  });
}
