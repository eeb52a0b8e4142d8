import type { List, ListItem, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { endingLine } from '../../model/ending-line.js';
import type { Snapshot } from '../../model/snapshot.js';
import { isolateBidi } from '../isolate-bidi.js';
import { shortSha } from '../short-sha.js';
import { type DoneArtifact, doneArtifact, type QuotedNode } from './done-artifact.js';

const text = (value: string): PhrasingContent => ({ type: 'text', value: isolateBidi(value) });
const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
const strong = (value: string): PhrasingContent => ({ type: 'strong', children: [{ type: 'text', value }] });
const paragraph = (...children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });

function list(items: PhrasingContent[][]): List {
  return { type: 'list', ordered: false, spread: false, children: items.map((c): ListItem => ({ type: 'listItem', spread: false, children: [paragraph(...c)] })) };
}

function part(title: string, items: PhrasingContent[][], none: string): RootContent[] {
  return [paragraph(strong(title)), items.length > 0 ? list(items) : paragraph(text(none))];
}

const quoted = (q: QuotedNode): PhrasingContent[] => [code(q.node), text(`${q.section ? ` (${q.section})` : ''}: ${q.text}`)];

function tree(a: DoneArtifact): Root {
  const top: RootContent[] = [paragraph(strong(`Done: ${a.ledger}`), text(' at revision '), code(a.revision))];
  if (a.openQuestions > 0) {
    const n = a.openQuestions;
    top.push(paragraph(strong(`${n} open ${n === 1 ? 'question' : 'questions'}.`), text(' This work is not verified: the open questions are listed under Verification.')));
  }
  if (a.ending) {
    const { lead, tail } = endingLine(a.ending);
    top.push(paragraph(text(`Ending: ${lead}`), code(a.ending.commit), text(tail)));
  }
  const what: PhrasingContent[][] = [...(a.what.problem ? [[strong('Problem'), text(' '), ...quoted(a.what.problem)]] : []), ...a.what.settled.map(quoted)];
  const why = a.why.map((w) => [code(w.node), text(` (${w.type}): ${w.reason} `), code(shortSha(w.commit))]);
  const evidence = a.evidence.map((e) => [
    text(`${e.kind === 'link' ? 'link' : e.kind === 'pr' ? 'pull request' : e.kind === 'sha' ? 'commit' : 'file and line'}: `),
    code(e.value),
    ...(e.node ? [text(' at '), code(e.node)] : []),
    ...(e.commit ? [text(' in the reason of '), code(shortSha(e.commit))] : []),
  ]);
  const verification = [...a.verification.verified.map((q) => [strong('Verified'), text(' '), ...quoted(q)]), ...a.verification.unverified.map((q) => [strong('Unverified (open)'), text(' '), ...quoted(q)])];
  const links = a.links.map((l) => [code(l.node), text(`: ${l.label} `), code(l.href)]);
  return {
    type: 'root',
    children: [
      ...top,
      ...part('What', what, 'No text node.'),
      ...part('Why', why, 'No node.'),
      ...part('Evidence', evidence, 'None cited: no link node, and no reason names a pull request, a commit or a file and line.'),
      ...part('Verification', verification, 'No question was asked.'),
      ...part('Links', links, 'No link node.'),
    ],
  };
}

/**
 * Render the done artifact as Markdown (docs/projections.md, "The done artifact"): the title and
 * revision, the open questions first when there are any, the ending, then What, Why, Evidence,
 * Verification and Links. Built as an mdast tree and serialized by the library.
 *
 * @param snapshot - the canvas at one revision, with its node histories
 * @returns the Markdown, ending in a line feed; the same snapshot gives the same bytes
 */
export function renderDone(snapshot: Snapshot): string {
  return toMarkdown(tree(doneArtifact(snapshot)));
}
