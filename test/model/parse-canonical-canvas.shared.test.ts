import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CanonicalCanvas, parseCanonicalCanvas } from '../../src/model/parse-canonical-canvas.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import type { Canvas, CanvasNode } from '../../src/model/types.js';

// parseCanonicalCanvas (docs/store.md, "Verify", "Cost") answers exactly what parseCanvas and the
// canonical check answer: the same tree for every canonical document, whatever revision it comes
// from, and null (so the caller parses the whole document) for anything else.

/** Words with what makes splitting a document hard: tags escaped in text, line ends, indents. */
const word = fc.constantFrom('plan', '<text>', '  <', '\n  <list>', '&amp;', ']]>', '"q"', '\t', 'é', '😀', 'x');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => `w ${w.join(' ')}`);

/** One step of a history: what it does, and where (indices taken modulo the sizes). */
const step = fc.record({ op: fc.constantFrom('insert', 'replace', 'remove', 'move', 'title', 'nest'), at: fc.nat(), to: fc.nat(), text: words });

type Step = { op: string; at: number; to: number; text: string };

let counter = 0;

/** Apply one step to a copy of the canvas (ids and versions as the store would set them). */
function apply(canvas: Canvas, s: Step): Canvas {
  const children = [...canvas.children];
  const n = children.length;
  const id = () => `n${(counter++).toString(36)}`;
  switch (s.op) {
    case 'insert':
      children.splice(s.at % (n + 1), 0, s.to % 3 === 0 ? { type: 'section', id: id(), v: 1, title: s.text.replace(/\n/g, ' '), children: [] } : { type: 'text', id: id(), v: 1, text: s.text });
      break;
    case 'replace': {
      const old = children[s.at % Math.max(n, 1)];
      if (old?.type === 'text') children[s.at % n] = { ...old, v: old.v + 1, text: s.text };
      break;
    }
    case 'remove':
      if (n > 0) children.splice(s.at % n, 1);
      break;
    case 'move':
      if (n > 1) {
        const [moved] = children.splice(s.at % n, 1);
        children.splice(s.to % n, 0, { ...moved!, v: moved!.v + 1 });
      }
      break;
    case 'title': {
      const old = children[s.at % Math.max(n, 1)];
      if (old?.type === 'section') children[s.at % n] = { ...old, v: old.v + 1, title: s.text.replace(/\n/g, ' ') };
      break;
    }
    case 'nest': {
      const old = children[s.at % Math.max(n, 1)];
      if (old?.type === 'section') children[s.at % n] = { ...old, children: [...old.children, { type: 'text', id: id(), v: 1, text: s.text } as CanvasNode] };
      break;
    }
  }
  return { ...canvas, children };
}

describe('parseCanonicalCanvas', () => {
  it('gives the tree parseCanvas gives for every revision of a history, each from the one before', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        let canvas: Canvas = { ledger: 'prop', schema: '2', children: [] };
        let before: CanonicalCanvas | null = null;
        for (const s of steps) {
          canvas = apply(canvas, s);
          const bytes = Buffer.from(serializeCanvas(canvas));
          const read = parseCanonicalCanvas(bytes, 'prop', before);
          expect(read).not.toBeNull();
          expect(read!.canvas).toEqual(parseCanvas(bytes.toString('utf8'), 'prop'));
          before = read;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('answers null, or what parseCanvas and the canonical check answer, for bytes changed anywhere', () => {
    const change = fc.record({ at: fc.nat(), cut: fc.nat({ max: 12 }), put: fc.constantFrom('', ' ', '\n', '  <', '<text id="n0" v="1">x</text>\n', '</section>\n', '"', '&', 'v="2"', 'id="n1"') });
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 12 }), fc.array(change, { minLength: 1, maxLength: 3 }), (steps, changes) => {
        let canvas: Canvas = { ledger: 'prop', schema: '2', children: [] };
        for (const s of steps) canvas = apply(canvas, s);
        const bytes = Buffer.from(serializeCanvas(canvas));
        const before = parseCanonicalCanvas(bytes, 'prop', null);
        let text = bytes.toString('utf8');
        for (const c of changes) {
          const at = c.at % (text.length + 1);
          text = text.slice(0, at) + c.put + text.slice(at + c.cut);
        }
        // A cut inside a surrogate pair leaves a lone surrogate, written as U+FFFD: the bytes are the input.
        const changed = Buffer.from(text);
        const read = parseCanonicalCanvas(changed, 'prop', before);
        if (read === null) return;
        const whole = parseCanvas(changed.toString('utf8'), 'prop');
        expect(serializeCanvas(whole)).toBe(changed.toString('utf8'));
        expect(read.canvas).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });

  it('answers null for a canvas of no nodes whose close is on a line of its own: its canonical form is one line', () => {
    const open = '<canvas ledger="prop" schema="2">';
    expect(parseCanonicalCanvas(Buffer.from(`${open}</canvas>\n`), 'prop', null)?.canvas.children).toEqual([]);
    expect(parseCanonicalCanvas(Buffer.from(`${open}\n</canvas>\n`), 'prop', null)).toBeNull();
  });

  it('refuses what is not canonical or not valid, so the caller reports it: another ledger, a duplicate id, a stray line', () => {
    const canvas: Canvas = {
      ledger: 'r',
      schema: '2',
      children: [
        { type: 'text', id: 'ab', v: 1, text: 'one' },
        { type: 'text', id: 'cd', v: 1, text: 'two' },
      ],
    };
    const good = serializeCanvas(canvas);
    const before = parseCanonicalCanvas(Buffer.from(good), 'r', null);
    expect(before?.canvas).toEqual(canvas);
    expect(parseCanonicalCanvas(Buffer.from(good), 'other', null)).toBeNull();
    expect(parseCanonicalCanvas(Buffer.from(good.replace('id="cd"', 'id="ab"')), 'r', before)).toBeNull();
    expect(parseCanonicalCanvas(Buffer.from(good.replace('two', 'two  ').replace('</text>\n</canvas>', '</text>\n\n</canvas>')), 'r', before)).toBeNull();
    expect(parseCanonicalCanvas(Buffer.from(good.replace('<text id="cd" v="1">', '<text  id="cd" v="1">')), 'r', before)).toBeNull();
    // Bytes that are not UTF-8 are left to the whole parse and its strict decoding.
    const bad = Buffer.from(good);
    bad[bad.indexOf('two')] = 0xff;
    expect(parseCanonicalCanvas(bad, 'r', before)).toBeNull();
  });
});
