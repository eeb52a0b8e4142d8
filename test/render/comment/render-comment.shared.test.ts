import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import type { CanvasNode } from '../../../src/model/types.js';
import { renderComment } from '../../../src/render/comment/render-comment.js';
import { REV, snapshotOf } from '../snapshot-of.js';

function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const c of node.children as Nodes[]) walk(c, visit);
}

function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(textOf).join('');
  return '';
}

/** The blocks of a comment as (type, text) pairs. */
function blocks(md: string): Array<[string, string]> {
  return fromMarkdown(md).children.map((c) => [c.type, textOf(c)]);
}

const HOSTILE = '&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; *x* [a](b) ]]&gt; &lt;!-- c --&gt;';
const HOSTILE_TEXT = '<script>alert(1)</script> <b>bold</b> *x* [a](b) ]]> <!-- c -->';

describe('renderComment', () => {
  it('escapes text that looks like HTML or Markdown: it reads back as the same text, and no tag-shaped text is left', () => {
    const md = renderComment(snapshotOf(`<section id="s1" v="1" title="${HOSTILE}"><text id="t1" v="1">${HOSTILE}</text></section>`));
    const tree = fromMarkdown(md);
    const kinds = new Set<string>();
    walk(tree, (n) => kinds.add(n.type));
    expect(kinds.has('html')).toBe(false);
    expect(kinds.has('emphasis')).toBe(false);
    expect(kinds.has('link')).toBe(false);
    expect(blocks(md)).toContainEqual(['paragraph', HOSTILE_TEXT]);
    // Outside fenced code no `<` is followed by a letter, `/`, `!` or `?`: the comment's transport
    // would take any such text for HTML and skip the Markdown conversion of the whole comment.
    expect(md).not.toMatch(/<[A-Za-z/!?]/);
  });

  it('uses paragraphs, lists and fenced code only; section titles are bold lines', () => {
    const md = renderComment(
      snapshotOf(
        '<section id="s1" v="1" title="Options"><text id="t1" v="1">a</text><list id="l1" v="1"><item>x</item></list><list id="l2" v="1" ordered="true"><item>y</item></list></section>' +
          '<figure id="f1" v="1" kind="mermaid" caption="c">graph TD</figure><link id="k1" v="1" href="https://example.com">ex</link><question id="q1" v="1">q?</question>',
      ),
    );
    const tree = fromMarkdown(md);
    expect(new Set(tree.children.map((c) => c.type))).toEqual(new Set(['paragraph', 'list', 'code']));
    const title = tree.children.find((c) => c.type === 'paragraph' && textOf(c) === 'Options');
    expect(title?.type === 'paragraph' && title.children.map((c) => c.type)).toEqual(['strong']);
    const ordered = tree.children.filter((c) => c.type === 'list').map((c) => c.type === 'list' && c.ordered);
    expect(ordered).toContain(true);
  });

  it('unfolds a table into its header line and one bullet per row', () => {
    const md = renderComment(snapshotOf('<table id="t1" v="1"><row><cell>Option</cell><cell>Cost</cell></row><row><cell>A</cell><cell>2 days</cell></row><row><cell>B</cell><cell>2 weeks</cell></row></table>'));
    const b = blocks(md);
    const at = b.findIndex(([, t]) => t === 'Option | Cost');
    expect(at).toBeGreaterThan(0);
    const list = fromMarkdown(md).children[at + 1];
    expect(list?.type).toBe('list');
    expect(list?.type === 'list' && list.children.map(textOf)).toEqual(['A | 2 days', 'B | 2 weeks']);
  });

  it('shows a figure as a label line and its source fenced, whatever backticks the source holds', () => {
    const src = 'graph TD\n  A["</pre><script>"] --> B\n```\n````';
    const md = renderComment(snapshotOf(`<figure id="f1" v="1" kind="mermaid" caption="flow">${src.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</figure>`));
    const tree = fromMarkdown(md);
    const at = tree.children.findIndex((c) => textOf(c) === 'Mermaid diagram: flow');
    const code = tree.children[at + 1];
    expect(code?.type === 'code' && [code.lang, code.value]).toEqual(['mermaid', src]);
  });

  it('fences an SVG figure with its markup as the source', () => {
    const md = renderComment(snapshotOf('<figure id="f1" v="1" kind="svg"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg></figure>'));
    const code = fromMarkdown(md).children.find((c) => c.type === 'code');
    expect(code?.type === 'code' && code.value).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n  <rect width="10" height="10"></rect>\n</svg>');
  });

  it('carries the revision, the frozen marker and the last edit', () => {
    const md = renderComment(
      snapshotOf('<text id="t1" v="1">x</text>', {
        ending: { kind: 'frozen', commit: 'f'.repeat(40), reason: 'done', author: 'leo | by-hand', date: '2026-01-01T00:00:00.000Z', editedSince: false },
        lastEdit: { commit: REV, op: 'replace', node: 't1', author: 'leo | by-hand', reason: 'why not', date: '2026-01-01T00:00:00.000Z' },
      }),
    );
    const b = blocks(md).map(([, t]) => t);
    expect(b).toContain(`Revision: ${REV}`);
    expect(b).toContain(`Frozen. This canvas was frozen at ${'f'.repeat(40)}: done`);
    const later = (kind: 'frozen' | 'abandoned', editedSince: boolean) =>
      blocks(
        renderComment(snapshotOf('<text id="t1" v="1">x</text>', { ending: { kind, commit: 'a'.repeat(40), reason: 'given up', author: 'leo | by-hand', date: '2026-01-01T00:00:00.000Z', editedSince } })),
      ).map(([, t]) => t);
    expect(later('abandoned', false)).toContain(`Abandoned. This canvas was abandoned at ${'a'.repeat(40)}: given up`);
    expect(later('frozen', true)).toContain(`Frozen. This canvas was frozen at ${'a'.repeat(40)}; edited since: given up`);
    expect(b).toContain('Last edit: replace t1 by leo | by-hand, 2026-01-01 00:00 UTC: why not 0123456');
  });

  it('refuses a node type schema 2 does not have', () => {
    const s = snapshotOf('');
    s.canvas.children.push({ type: 'risk', id: 'r1', v: 1 } as unknown as CanvasNode);
    expect(() => renderComment(s)).toThrow(CanvasError);
    try {
      renderComment(s);
    } catch (e) {
      expect((e as CanvasError).code).toBe('SCHEMA');
    }
  });
});
