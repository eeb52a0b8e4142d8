// The four claims docs/projections.md makes about what the projections say ("What all three say"), asserted against
// both the page and the comment of every golden case:
//   1. every question id is in the index;  2. only question ids are in it;
//   3. every question node carries a marker;
//   4. one reason per node that crossed between sections, none elsewhere, each with its sha.
import type { Nodes as MdNodes, Paragraph, Root as MdRoot } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { indexNodes } from '../../src/model/index-nodes.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import type { QuestionNode } from '../../src/model/types.js';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { pageOf } from './page-of.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { buildCase, caseNames } from './golden-cases.js';
import { byId, classes, elements, parsePage, textOf } from './page-claims.js';

function questionsOf(s: Snapshot): QuestionNode[] {
  return [...indexNodes(s.canvas).values()].map((e) => e.node).filter((n): n is QuestionNode => n.type === 'question');
}

function mdText(node: MdNodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as MdNodes[]).map(mdText).join('');
  return '';
}

function walkMd(node: MdNodes, visit: (n: MdNodes) => void): void {
  visit(node);
  if ('children' in node) for (const c of node.children as MdNodes[]) walkMd(c, visit);
}

/** The paragraph's leading strong text and the inline code right after it, if it has that shape. */
function lead(p: Paragraph): { strong: string; code: string } | null {
  const [a, b, c] = p.children;
  if (a?.type !== 'strong' || b?.type !== 'text' || b.value !== ' ' || c?.type !== 'inlineCode') return null;
  return { strong: mdText(a), code: c.value };
}

const cases = caseNames();

describe.each(cases)('the four claims on %s', (name) => {
  describe('page', () => {
    it('indexes every question and only questions, open ones first, each linking to its node', async () => {
      const s = await buildCase(name);
      const tree = parsePage(await pageOf(s));
      const index = byId(tree, 'questions');
      expect(index).toBeDefined();
      const hrefs = elements(index!)
        .filter((e) => e.el.tagName === 'a')
        .map((e) => String(e.el.properties.href));
      const questions = questionsOf(s);
      const expected = [...questions.filter((q) => !q.answered), ...questions.filter((q) => q.answered)].map((q) => `#${q.id}`);
      expect(hrefs).toEqual(expected);
      for (const href of hrefs) {
        const target = byId(tree, href.slice(1));
        expect(target && classes(target)).toContain('question');
      }
    });

    it('gives every node an element with its id, and every question the class and a marker', async () => {
      const s = await buildCase(name);
      const tree = parsePage(await pageOf(s));
      for (const { node } of indexNodes(s.canvas).values()) {
        const el = byId(tree, node.id);
        expect(el, `element for ${node.id}`).toBeDefined();
        const isQuestion = classes(el!).includes('question');
        expect(isQuestion).toBe(node.type === 'question');
        if (node.type === 'question') {
          const marker = elements(el!).find((e) => classes(e.el).includes('marker'));
          expect(marker && textOf(marker.el)).toBe(node.answered ? 'Answered' : 'Open question');
        }
      }
    });

    it('shows one crossing note per node that crossed, with the reason and the short sha, and none elsewhere', async () => {
      const s = await buildCase(name);
      const tree = parsePage(await pageOf(s));
      const notes = elements(tree).filter((e) => classes(e.el).includes('crossing'));
      const owners = notes.map((n) => {
        const owner = [...n.ancestors].reverse().find((a) => typeof a.properties.id === 'string' && a.properties.id !== 'questions');
        return { id: String(owner?.properties.id), text: textOf(n.el) };
      });
      expect(owners.map((o) => o.id).sort()).toEqual(s.crossings.map((c) => c.node).sort());
      for (const c of s.crossings) {
        const note = owners.find((o) => o.id === c.node)!;
        expect(note.text).toContain(c.reason);
        expect(note.text).toContain(c.commit.slice(0, 7));
      }
    });
  });

  describe('comment', () => {
    async function comment(): Promise<{ s: Snapshot; tree: MdRoot }> {
      const s = await buildCase(name);
      return { s, tree: fromMarkdown(renderComment(s)) };
    }

    it('holds no raw HTML anywhere', async () => {
      const { tree } = await comment();
      const kinds = new Set<string>();
      walkMd(tree, (n) => kinds.add(n.type));
      expect(kinds.has('html')).toBe(false);
      for (const k of kinds) expect(['root', 'paragraph', 'text', 'strong', 'inlineCode', 'list', 'listItem', 'code', 'link']).toContain(k);
    });

    it('indexes every question and only questions, open ones first', async () => {
      const { s, tree } = await comment();
      const at = tree.children.findIndex((c) => c.type === 'paragraph' && c.children[0]?.type === 'strong' && mdText(c.children[0]) === 'Questions');
      expect(at).toBeGreaterThanOrEqual(0);
      const next = tree.children[at + 1];
      const questions = questionsOf(s);
      const ids = next?.type === 'list' ? next.children.map((item) => lead(item.children[0] as Paragraph)?.code) : [];
      expect(ids).toEqual([...questions.filter((q) => !q.answered), ...questions.filter((q) => q.answered)].map((q) => q.id));
    });

    it('marks every question node where it stands', async () => {
      const { s, tree } = await comment();
      const marked = new Map<string, string>();
      for (const c of tree.children) {
        const l = c.type === 'paragraph' ? lead(c) : null;
        if (l && l.strong !== 'Moved') marked.set(l.code, l.strong);
      }
      for (const q of questionsOf(s)) expect(marked.get(q.id), q.id).toBe(q.answered ? 'Answered' : 'Open question');
    });

    it('carries one crossing line per node that crossed, with the reason and the short sha, and none elsewhere', async () => {
      const { s, tree } = await comment();
      const lines = tree.children.filter((c): c is Paragraph => c.type === 'paragraph' && lead(c)?.strong === 'Moved');
      expect(lines.map((p) => lead(p)!.code).sort()).toEqual(s.crossings.map((c) => c.node).sort());
      for (const c of s.crossings) {
        const line = lines.find((p) => lead(p)!.code === c.node)!;
        expect(mdText(line)).toContain(c.reason);
        expect(mdText(line)).toContain(c.commit.slice(0, 7));
      }
    });

    it('shows the revision exactly as the page does', async () => {
      const { s, tree } = await comment();
      const page = parsePage(await pageOf(s));
      const shown = elements(page).find((e) => classes(e.el).includes('revision'));
      expect(shown && textOf(shown.el)).toBe(s.revision);
      const line = tree.children.find((c) => c.type === 'paragraph' && mdText(c).startsWith('Revision: '));
      expect(line && mdText(line)).toBe(`Revision: ${s.revision}`);
    });
  });

  it('renders the same bytes twice', async () => {
    const s = await buildCase(name);
    expect(await pageOf(s)).toBe(await pageOf(s));
    expect(renderComment(s)).toBe(renderComment(s));
    expect(renderPrompt(s)).toBe(renderPrompt(s));
  });
});

describe('the crossings case', () => {
  it('has the crossings the script made: across sections yes (a section too); within a section, away and back, or carried by a section, no', async () => {
    const s = await buildCase('crossings');
    const idOf = (text: string): string => {
      for (const { node } of indexNodes(s.canvas).values()) {
        if ((node.type === 'text' || node.type === 'question') && node.text === text) return node.id;
        if (node.type === 'section' && node.title === text) return node.id;
      }
      throw new Error(text);
    };
    const crossed = Object.fromEntries(s.crossings.map((c) => [c.node, c.reason]));
    expect(crossed).toEqual({
      [idOf('Retries use exponential backoff capped at 30 s.')]: 'settled: the backoff was agreed in the review',
      [idOf('The client logs every retry at debug level.')]: 'decided after all: debug-level retry logs stay',
      [idOf('Later')]: 'what can wait is part of the inbox, under its own heading',
    });
    // A section that crossed carries its children along: they did not cross.
    expect(crossed[idOf('Metrics for retries can wait.')]).toBeUndefined();
  });
});
