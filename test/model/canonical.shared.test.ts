import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../../src/model/convert-element.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import type { Canvas, CanvasNode } from '../../src/model/types.js';

const chars = fc.constantFrom('a', 'b', ' ', '<', '>', '&', '"', "'", ']', '\t', '\n', 'é', '字', '😀', '\u2028', 'x');
const text = fc.array(chars, { minLength: 1, maxLength: 12 }).map((a) => `w${a.join('')}`);
const line = text.map((t) => t.replace(/\n/g, ' '));

let counter = 0;
const id = () => `n${(counter++).toString(36)}`;

const block: fc.Arbitrary<Omit<CanvasNode, 'id' | 'v'>> = fc.oneof(
  text.map((t) => ({ type: 'text' as const, text: t })),
  fc.record({ t: text, answered: fc.boolean() }).map(({ t, answered }) => ({ type: 'question' as const, text: t, answered })),
  fc.record({ items: fc.array(text, { minLength: 1, maxLength: 3 }), ordered: fc.boolean() }).map((r) => ({ type: 'list' as const, ...r })),
  fc
    .record({ w: fc.integer({ min: 2, max: 3 }), h: fc.integer({ min: 1, max: 3 }), cell: fc.array(fc.oneof(text, fc.constant('')), { minLength: 9, maxLength: 9 }) })
    .map(({ w, h, cell }) => ({ type: 'table' as const, rows: Array.from({ length: h }, (_, r) => Array.from({ length: w }, (_, c) => cell[r * 3 + c]!)) })),
  fc.record({ href: line, label: text }).map((r) => ({ type: 'link' as const, ...r })),
  fc.record({ source: text, kind: fc.constantFrom('diagram' as const, 'mermaid' as const) }).map((r) => ({ type: 'figure' as const, ...r })),
);

const canvas: fc.Arbitrary<Canvas> = fc
  .array(
    fc.oneof(
      block.map((b) => ({ b, kids: null as null | Omit<CanvasNode, 'id' | 'v'>[] })),
      fc.record({ title: line, kids: fc.array(block, { maxLength: 3 }) }).map((s) => ({ b: { type: 'section' as const, title: s.title, children: [] }, kids: s.kids })),
    ),
    { maxLength: 6 },
  )
  .map((items) => ({
    ledger: 'prop',
    schema: '2' as const,
    children: items.map(({ b, kids }) => {
      const node = { ...b, id: id(), v: 1 } as CanvasNode;
      if (node.type === 'section') node.children = (kids ?? []).map((k) => ({ ...k, id: id(), v: 2 }) as CanvasNode);
      return node;
    }),
  }));

describe('canonical bytes (docs/canonical.md)', () => {
  it('serialize(parse(x)) is idempotent and parse(serialize(t)) gives the tree back', () => {
    fc.assert(
      fc.property(canvas, (c) => {
        const x = serializeCanvas(c);
        const back = parseCanvas(x);
        expect(back).toEqual(c);
        expect(serializeCanvas(back)).toBe(x);
      }),
      { numRuns: 300 },
    );
  });

  it('writes LF, no declaration, attributes in schema order, minimal escapes, one final newline', () => {
    const input =
      '<canvas schema="2" ledger="t">\r\n<list ordered="true" v="1" id="ab"><item>a &gt; b &amp; c</item></list>\r\n' +
      '<section title="T &quot;q&quot;&#9;x" v="2" id="cd"></section><text v="1" id="ef">]]&gt; &#10; end</text></canvas>';
    expect(serializeCanvas(parseCanvas(input))).toBe(
      '<canvas ledger="t" schema="2">\n' +
        '  <list id="ab" v="1" ordered="true">\n    <item>a > b &amp; c</item>\n  </list>\n' +
        '  <section id="cd" v="2" title="T &quot;q&quot;&#9;x"></section>\n' +
        '  <text id="ef" v="1">]]&gt; \n end</text>\n' +
        '</canvas>\n',
    );
  });

  it('normalizes CRLF and CR in character data the way XML does', () => {
    const c = parseCanvas('<canvas ledger="t" schema="2"><text id="ab" v="1">one\r\ntwo\rthree</text></canvas>');
    expect(c.children[0]).toMatchObject({ text: 'one\ntwo\nthree' });
  });

  it("pins each element's exact attribute set (declaring a new one breaks this test)", () => {
    expect(ATTRIBUTES).toEqual({
      canvas: ['ledger', 'schema'],
      section: ['id', 'v', 'title'],
      text: ['id', 'v'],
      list: ['id', 'v', 'ordered'],
      item: [],
      table: ['id', 'v'],
      row: [],
      cell: [],
      figure: ['id', 'v', 'kind', 'caption'],
      link: ['id', 'v', 'href'],
      question: ['id', 'v', 'answered'],
    });
    expect(() => parseCanvas('<canvas ledger="t" schema="2"><text id="ab" v="1" open="true">x</text></canvas>')).toThrow(expect.objectContaining({ code: 'SCHEMA' }));
  });
});
