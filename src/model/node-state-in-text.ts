import { nodeState, type NodeState } from './diff-canvases.js';
import { parseCanvas } from './parse-canvas.js';

/**
 * One node's state (docs/diff.md) read from a canvas document's canonical text without parsing
 * the whole document: what the inbox needs for each commit of a long history, where parsing every
 * revision whole would cost most of its time.
 *
 * It relies on the canonical form (docs/canonical.md): in character data and attribute values `<`
 * is always escaped, so every `<` starts a tag, and a node's start tag begins `<type id="N" `.
 * The node's element is cut out (a section's start tag alone, as a diff shows a section), parsed
 * on its own inside an empty canvas, with the same parser and checks as a whole document, and its
 * parent is the section whose element holds it (sections nest one level). A test checks it
 * against the state from the whole document for every node of a corpus.
 *
 * @param text - the document's canonical text
 * @param ledger - its ledger id
 * @param id - the node
 * @returns its state, or null when the document holds no such node
 * @throws CanvasError when the cut-out element does not parse (the caller falls back to the whole document)
 */
export function nodeStateInText(text: string, ledger: string, id: string): NodeState | null {
  const start = new RegExp(`<(section|text|list|table|figure|link|question) id="${id}" `).exec(text);
  if (!start) return null;
  const type = start[1]!;
  const at = start.index;
  const open = startTagEnd(text, at);
  const element = type === 'section' ? `${text.slice(at, open)}</section>` : text.slice(at, text.indexOf(`</${type}>`, open) + type.length + 3);
  const canvas = parseCanvas(`<canvas ledger="${ledger}" schema="2">\n${element}\n</canvas>\n`, ledger);
  const node = canvas.children[0];
  if (!node || canvas.children.length !== 1) throw new Error(`node ${id} could not be cut out of the document`);
  return nodeState(node, parentAt(text, at));
}

/** The index just past the `>` that ends the start tag at `at` (a `>` inside a quoted value does not). */
function startTagEnd(text: string, at: number): number {
  let quoted = false;
  for (let i = at; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === 34) quoted = !quoted;
    else if (ch === 62 && !quoted) return i + 1;
  }
  return text.length;
}

/** The id of the section whose element holds the position, or `root`. */
function parentAt(text: string, at: number): string {
  const stack: string[] = [];
  const tags = /<section id="([^"]+)"|<\/section>/g;
  for (let m = tags.exec(text); m && m.index < at; m = tags.exec(text)) {
    if (m[1] === undefined) stack.pop();
    else stack.push(m[1]);
  }
  return stack[stack.length - 1] ?? 'root';
}
