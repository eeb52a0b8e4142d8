import { describe, expect, it } from 'vitest';
import type { PlannedNode } from '../../src/import/import-plan.js';
import { planImport, SECTIONS_NEST, UNTITLED } from '../../src/import/plan-import.js';

/** The nodes as `kind@line parent payload`, compact for assertions. */
function shape(nodes: readonly PlannedNode[]) {
  return nodes.map((n) => ({ line: n.line, kind: n.kind, parent: n.parent, payload: n.payload }));
}

function whats(md: string): string[] {
  return planImport(md).flattened.map((f) => `${f.line}: ${f.what}`);
}

describe('planImport: front matter', () => {
  it('maps a YAML mapping to a list of key: value items, nested values on one line (reported)', () => {
    const plan = planImport('---\nstatus: accepted\ndate:\ntags:\n  - a\n  - b\nwho: {name: x}\n---\n# T\n');
    expect(shape(plan.nodes)[0]).toEqual({
      line: 1,
      kind: 'front matter',
      parent: null,
      payload: { type: 'list', ordered: false, items: ['status: accepted', 'date:', 'tags: [a, b]', 'who: {name: x}'] },
    });
    expect(plan.flattened.map((f) => f.what)).toEqual(['front matter "tags": nested value written on one line', 'front matter "who": nested value written on one line']);
  });

  it('maps a YAML sequence to one item per element and skips empty front matter (reported)', () => {
    expect(planImport('---\n- one\n- two\n---\n').nodes[0]!.payload).toEqual({ type: 'list', ordered: false, items: ['one', 'two'] });
    const empty = planImport('---\n# only a comment\n---\n# T\n');
    expect(empty.nodes.map((n) => n.kind)).toEqual(['heading 1']);
    expect(empty.flattened).toEqual([{ line: 1, what: 'front matter is empty: skipped' }]);
  });

  it('keeps front matter that is not valid YAML as a text of its raw source (reported)', () => {
    const plan = planImport('---\nk: [\n---\n# T\n');
    expect(plan.nodes[0]!.payload).toEqual({ type: 'text', text: 'k: [' });
    expect(plan.flattened[0]!.what).toMatch(/^front matter is not valid YAML .*: kept as text$/);
  });
});

describe('planImport: headings and sections', () => {
  it('maps the H1 to a text at the root, closing any open section', () => {
    const plan = planImport('# Title *here*\n\n## A\n\npara\n\n# Second\n\nafter\n');
    expect(shape(plan.nodes)).toEqual([
      { line: 1, kind: 'heading 1', parent: null, payload: { type: 'text', text: 'Title here' } },
      { line: 3, kind: 'section (##)', parent: null, payload: { type: 'section', title: 'A', children: [] } },
      { line: 5, kind: 'paragraph', parent: 1, payload: { type: 'text', text: 'para' } },
      { line: 7, kind: 'heading 1', parent: null, payload: { type: 'text', text: 'Second' } },
      { line: 9, kind: 'paragraph', parent: null, payload: { type: 'text', text: 'after' } },
    ]);
  });

  it('maps ## to a root-level section holding the blocks that follow; a setext title becomes one line', () => {
    const plan = planImport('## One\n\na\n\nTwo\nlines\n---\n\nb\n');
    expect(shape(plan.nodes)).toEqual([
      { line: 1, kind: 'section (##)', parent: null, payload: { type: 'section', title: 'One', children: [] } },
      { line: 3, kind: 'paragraph', parent: 0, payload: { type: 'text', text: 'a' } },
      { line: 5, kind: 'section (##)', parent: null, payload: { type: 'section', title: 'Two lines', children: [] } },
      { line: 9, kind: 'paragraph', parent: 2, payload: { type: 'text', text: 'b' } },
    ]);
  });

  it('maps ### to a section inside the open ## section when sections nest', () => {
    const plan = planImport('## Options\n\nintro\n\n### A\n\na\n\n### B\n\nb\n\n## Next\n\nn\n', { nestSections: true });
    expect(plan.nodes.map((n) => [n.kind, n.parent])).toEqual([
      ['section (##)', null],
      ['paragraph', 0],
      ['section (###)', 0],
      ['paragraph', 2],
      ['section (###)', 0],
      ['paragraph', 4],
      ['section (##)', null],
      ['paragraph', 6],
    ]);
    expect(plan.flattened).toEqual([]);
  });

  it('maps ### with no ## above it to a root-level section (reported) when sections nest', () => {
    const plan = planImport('### Lone\n\nx\n', { nestSections: true });
    expect(plan.nodes.map((n) => [n.kind, n.parent])).toEqual([
      ['section (###)', null],
      ['paragraph', 0],
    ]);
    expect(plan.flattened.map((f) => f.what)).toEqual(['### with no ## above it: made a root-level section']);
  });

  it('maps ### to a root-level section after the ## section when asked for a flat canvas (nesting is the default)', () => {
    expect(SECTIONS_NEST).toBe(true);
    const plan = planImport('## Options\n\nintro\n\n### A\n\na\n\n### B\n\nb\n', { nestSections: false });
    expect(plan.nodes.map((n) => [n.kind, n.parent])).toEqual([
      ['section (##)', null],
      ['paragraph', 0],
      ['section (###)', null],
      ['paragraph', 2],
      ['section (###)', null],
      ['paragraph', 4],
    ]);
    expect(plan.flattened.map((f) => f.line)).toEqual([5, 9]);
  });

  it('maps #### and deeper to a text in the open section (reported)', () => {
    const plan = planImport('## S\n\n#### Deep\n\n###### Deeper\n');
    expect(shape(plan.nodes).slice(1)).toEqual([
      { line: 3, kind: 'heading 4', parent: 0, payload: { type: 'text', text: 'Deep' } },
      { line: 5, kind: 'heading 6', parent: 0, payload: { type: 'text', text: 'Deeper' } },
    ]);
    expect(whats('## S\n\n#### Deep\n')).toEqual(['3: heading 4 imported as text (sections nest one level only)']);
  });

  it('titles a ## heading with no words (untitled, reported) and skips an empty # heading', () => {
    const plan = planImport('#\n\n##\n\nx\n');
    expect(shape(plan.nodes)).toEqual([
      { line: 3, kind: 'section (##)', parent: null, payload: { type: 'section', title: UNTITLED, children: [] } },
      { line: 5, kind: 'paragraph', parent: 0, payload: { type: 'text', text: 'x' } },
    ]);
    expect(plan.flattened.map((f) => f.what)).toEqual(['blank heading 1 skipped', `section (##) heading has no words: titled ${UNTITLED}`]);
  });
});

describe('planImport: paragraphs and inline', () => {
  it('maps a paragraph to a text, keeping soft line breaks, a hard break as a line feed', () => {
    expect(planImport('one\ntwo  \nthree\n').nodes[0]!.payload).toEqual({ type: 'text', text: 'one\ntwo\nthree' });
  });

  it('flattens emphasis, strong, strikethrough and inline code to plain text, each reported', () => {
    const plan = planImport('a *b* **c** ~~d~~ `e`\n');
    expect(plan.nodes[0]!.payload).toEqual({ type: 'text', text: 'a b c d e' });
    expect(plan.flattened.map((f) => f.what)).toEqual([
      'emphasis flattened to plain text: "b"',
      'strong emphasis flattened to plain text: "c"',
      'strikethrough flattened to plain text: "d"',
      'inline code flattened to plain text: "e"',
    ]);
  });

  it('flattens a link inside text to its text (reported with the address); an autolink is not reported', () => {
    const plan = planImport('see [the guide](https://x.test/guide) and <https://y.test>\n');
    expect(plan.nodes[0]!.payload).toEqual({ type: 'text', text: 'see the guide and https://y.test' });
    expect(plan.flattened.map((f) => f.what)).toEqual(['link flattened to its text "the guide" (address https://x.test/guide)']);
  });

  it('maps a paragraph that is one bare link or autolink to a link', () => {
    expect(planImport('<https://x.test/a>\n').nodes[0]!.payload).toEqual({ type: 'link', href: 'https://x.test/a', label: 'https://x.test/a' });
    expect(planImport('https://x.test/b\n').nodes[0]!.payload).toEqual({ type: 'link', href: 'https://x.test/b', label: 'https://x.test/b' });
    expect(planImport('[Spec **v2**](https://x.test/c)\n').nodes[0]).toMatchObject({
      kind: 'link',
      payload: { type: 'link', href: 'https://x.test/c', label: 'Spec v2' },
    });
    const ref = planImport('[ADR 8][adr8]\n\n[adr8]: 0008.md\n');
    expect(ref.nodes.map((n) => n.payload)).toEqual([{ type: 'link', href: '0008.md', label: 'ADR 8' }]);
    expect(ref.flattened.map((f) => f.what)).toEqual(['link reference definition [adr8] skipped (references to it are resolved)']);
  });

  it('maps an image to a link (label = alt, else the address); a paragraph of images only makes no text', () => {
    const plan = planImport('![a diagram](d.png) ![](e.png)\n');
    expect(shape(plan.nodes)).toEqual([
      { line: 1, kind: 'image', parent: null, payload: { type: 'link', href: 'd.png', label: 'a diagram' } },
      { line: 1, kind: 'image', parent: null, payload: { type: 'link', href: 'e.png', label: 'e.png' } },
    ]);
    expect(plan.nodes.some((n) => n.payload.type === 'text')).toBe(false);
  });

  it('lifts an image out of a paragraph with words: the text first, then the link (reported)', () => {
    const plan = planImport('Example:\n![shot](s.png)\n');
    expect(plan.nodes.map((n) => n.payload)).toEqual([
      { type: 'text', text: 'Example:' },
      { type: 'link', href: 's.png', label: 'shot' },
    ]);
    expect(plan.flattened).toEqual([{ line: 2, what: 'image s.png lifted out of its paragraph into a link node' }]);
  });

  it('skips an image without an address (reported) and never writes a blank text', () => {
    const plan = planImport('![alt]()\n');
    expect(plan.nodes).toEqual([]);
    expect(plan.flattened.map((f) => f.what)).toEqual(['image without a one-line address skipped']);
  });
});

describe('planImport: lists', () => {
  it('maps a bullet list to a list and an ordered list to ordered="true"', () => {
    expect(planImport('* a\n* b\n').nodes[0]).toMatchObject({ kind: 'list', payload: { type: 'list', ordered: false, items: ['a', 'b'] } });
    expect(planImport('1. a\n2. b\n').nodes[0]).toMatchObject({ kind: 'ordered list', payload: { type: 'list', ordered: true, items: ['a', 'b'] } });
    expect(whats('3. c\n4. d\n')).toEqual(['1: ordered list starting at 3: the list numbers from 1']);
  });

  it('flattens nested items with their depth shown: two spaces per level past the first, then the sub-list marker', () => {
    const plan = planImport('- top\n  - child\n    1. grandchild\n    2. second\n- next\n');
    expect(plan.nodes[0]!.payload).toEqual({
      type: 'list',
      ordered: false,
      items: ['top', '- child', '  1. grandchild', '  2. second', 'next'],
    });
    expect(plan.flattened.map((f) => f.what)).toEqual(['nested list items flattened into one list (depth shown by indentation and marker)']);
  });

  it('shows task list checkboxes as [x] and [ ] (reported once)', () => {
    const plan = planImport('- [x] done\n- [ ] open\n  - [x] sub\n');
    expect(plan.nodes[0]!.payload).toMatchObject({ items: ['[x] done', '[ ] open', '- [x] sub'] });
    expect(plan.flattened.map((f) => f.what)).toContain('task list checkboxes written as [x] and [ ]');
  });

  it('joins other blocks of an item into its text and drops an empty item (reported)', () => {
    const plan = planImport('- first\n\n  more\n\n  ```\n  code\n  ```\n-\n- last\n');
    expect(plan.nodes[0]!.payload).toMatchObject({ items: ['first\nmore\ncode', 'last'] });
    expect(plan.flattened.map((f) => f.what)).toEqual(['code block inside a list item joined into its text', 'empty list item dropped']);
  });
});

describe('planImport: tables', () => {
  it('maps a GFM table to a table, header first, padding short rows with empty cells (reported)', () => {
    const plan = planImport('| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n| x |\n');
    expect(plan.nodes[0]).toMatchObject({
      kind: 'table',
      payload: {
        type: 'table',
        rows: [
          ['a', 'b', 'c'],
          ['1', '2', '3'],
          ['x', '', ''],
        ],
      },
    });
    expect(plan.flattened).toEqual([{ line: 4, what: 'table row 3 padded with 2 empty cell(s)' }]);
  });

  it('flattens inline formatting in cells (reported) and reports alignment it does not keep', () => {
    const plan = planImport('| *a* | b |\n|:--|--:|\n| 1 | 2 |\n');
    expect(plan.nodes[0]!.payload).toMatchObject({
      rows: [
        ['a', 'b'],
        ['1', '2'],
      ],
    });
    expect(plan.flattened.map((f) => f.what)).toEqual(['emphasis flattened to plain text: "a"', 'table column alignment not kept']);
  });

  it('maps a 1-column table to a list, header first (reported)', () => {
    const plan = planImport('| Option |\n|---|\n| one |\n| two |\n');
    expect(plan.nodes[0]!.payload).toEqual({ type: 'list', ordered: false, items: ['Option', 'one', 'two'] });
    expect(plan.flattened.map((f) => f.what)).toEqual(['1-column table imported as a list (header first)']);
  });
});

describe('planImport: code, quotes, breaks, HTML', () => {
  it('maps fenced code to a text with its lines kept; the language goes to the kind (reported)', () => {
    const plan = planImport('```js\nconst a = 1;\n\n  return a;\n```\n');
    expect(shape(plan.nodes)).toEqual([{ line: 1, kind: 'code (js)', parent: null, payload: { type: 'text', text: 'const a = 1;\n\n  return a;' } }]);
    expect(plan.flattened.map((f) => f.what)).toEqual(['code block language "js" kept in the reason only']);
  });

  it('maps indented code to a text; an empty code block is skipped (reported)', () => {
    expect(planImport('para\n\n    line one\n    line two\n').nodes[1]).toMatchObject({ kind: 'code', payload: { type: 'text', text: 'line one\nline two' } });
    const empty = planImport('```\n```\n');
    expect(empty.nodes).toEqual([]);
    expect(empty.flattened.map((f) => f.what)).toEqual(['blank code skipped']);
  });

  it('maps a blockquote to its blocks as if unquoted, a heading inside as text (reported)', () => {
    const plan = planImport('> ## Not a section\n> quoted *words*\n>\n> - item\n');
    expect(shape(plan.nodes)).toEqual([
      { line: 1, kind: 'heading 2', parent: null, payload: { type: 'text', text: 'Not a section' } },
      { line: 2, kind: 'blockquote paragraph', parent: null, payload: { type: 'text', text: 'quoted words' } },
      { line: 4, kind: 'list', parent: null, payload: { type: 'list', ordered: false, items: ['item'] } },
    ]);
    expect(plan.flattened.map((f) => f.what)).toEqual([
      'blockquote flattened: its blocks imported without the quote',
      'heading 2 inside a blockquote imported as text',
      'emphasis flattened to plain text: "words"',
    ]);
  });

  it('skips a thematic break (reported)', () => {
    const plan = planImport('a\n\n---\n\nb\n');
    expect(plan.nodes.map((n) => n.payload)).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    expect(plan.flattened).toEqual([{ line: 3, what: 'thematic break skipped' }]);
  });

  it('keeps block and inline HTML as raw character data (reported), never as markup', () => {
    const plan = planImport('<div class="x">\n<b>hi</b>\n</div>\n\ntext <br> more\n');
    expect(plan.nodes.map((n) => n.payload)).toEqual([
      { type: 'text', text: '<div class="x">\n<b>hi</b>\n</div>' },
      { type: 'text', text: 'text <br> more' },
    ]);
    expect(plan.flattened.map((f) => f.what)).toEqual(['HTML kept as text: "<div class="x"> <b>hi</b> </div>"', 'inline HTML kept as text: "<br>"']);
  });

  it('maps a footnote definition to a text and keeps a footnote reference as [^label] (reported)', () => {
    const plan = planImport('claim[^n]\n\n[^n]: the source\n');
    expect(plan.nodes.map((n) => n.payload)).toEqual([
      { type: 'text', text: 'claim[^n]' },
      { type: 'text', text: '[^n]: the source' },
    ]);
    expect(plan.flattened.map((f) => f.what)).toEqual(['footnote reference [^n] kept as text', 'footnote [^n] imported as text']);
  });
});

describe('planImport: characters and line ends', () => {
  it('drops control characters the schema refuses and reports each with its line', () => {
    const plan = planImport('ok\n\nbell\u0007 and\u000C feed\n\n- item\u0085\n');
    expect(plan.nodes.map((n) => n.payload)).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'text', text: 'bell and feed' },
      { type: 'list', ordered: false, items: ['item'] },
    ]);
    expect(plan.flattened).toEqual([
      { line: 3, what: 'control character U+0007 dropped (the schema refuses it)' },
      { line: 3, what: 'control character U+000C dropped (the schema refuses it)' },
      { line: 5, what: 'control character U+0085 dropped (the schema refuses it)' },
    ]);
  });

  it('drops a control character that comes from a YAML escape (reported)', () => {
    const plan = planImport('---\nk: "a\\ab"\n---\n');
    expect(plan.nodes[0]!.payload).toEqual({ type: 'list', ordered: false, items: ['k: ab'] });
    expect(plan.flattened.map((f) => f.what)).toEqual(['control character U+0007 dropped (the schema refuses it)']);
  });

  it('reads CRLF and CR as LF with the same line numbers, and drops a BOM', () => {
    const plan = planImport('\uFEFF# T\r\n\r\n## S\r\rcode:\r\n\r\n    a\r\n    b\r\n');
    expect(shape(plan.nodes)).toEqual([
      { line: 1, kind: 'heading 1', parent: null, payload: { type: 'text', text: 'T' } },
      { line: 3, kind: 'section (##)', parent: null, payload: { type: 'section', title: 'S', children: [] } },
      { line: 5, kind: 'paragraph', parent: 1, payload: { type: 'text', text: 'code:' } },
      { line: 7, kind: 'code', parent: 1, payload: { type: 'text', text: 'a\nb' } },
    ]);
  });
});
