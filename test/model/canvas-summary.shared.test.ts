import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { canvasSummary, SUMMARY_LENGTH } from '../../src/model/canvas-summary.js';
import type { Canvas, CanvasNode } from '../../src/model/types.js';

const canvas = (...children: CanvasNode[]): Canvas => ({ ledger: 'sum', schema: '2', children });
const text = (id: string, t: string): CanvasNode => ({ type: 'text', id, v: 1, text: t });
const graphemes = (s: string) => Array.from(new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)).length;

describe('canvasSummary (docs/projections.md, "The summary")', () => {
  it('is null for a canvas without a text node', () => {
    expect(canvasSummary(canvas())).toBeNull();
    expect(canvasSummary(canvas({ type: 'question', id: 'q1', v: 1, answered: false, text: 'Why?' }))).toBeNull();
  });

  it('takes the first text node in document order, inside a section too', () => {
    const c = canvas(
      { type: 'list', id: 'l1', v: 1, ordered: false, items: ['status: accepted'] },
      { type: 'section', id: 's1', v: 1, title: 'Context', children: [text('t1', 'Inside the section')] },
      text('t2', 'After the section'),
    );
    expect(canvasSummary(c)).toEqual({ node: 't1', text: 'Inside the section', full: 'Inside the section', cut: false });
  });

  it('makes the text one line and leaves a short one whole', () => {
    expect(canvasSummary(canvas(text('p1', '  Builds are slow\n\ton CI.\n')))).toEqual({
      node: 'p1',
      text: 'Builds are slow on CI.',
      full: 'Builds are slow on CI.',
      cut: false,
    });
    const exact = 'x'.repeat(SUMMARY_LENGTH);
    expect(canvasSummary(canvas(text('p1', exact)))?.cut).toBe(false);
  });

  it('cuts a long text before a space, leaving off trailing punctuation', () => {
    const problem = 'The nightly build takes ninety minutes, most of it spent re-downloading dependencies that have not changed, and engineers wait on it every morning.';
    const s = canvasSummary(canvas(text('p1', problem)))!;
    expect(s.cut).toBe(true);
    expect(s.text).toBe('The nightly build takes ninety minutes, most of it spent re-downloading…');
    expect(graphemes(s.text)).toBeLessThanOrEqual(SUMMARY_LENGTH);
    expect(s.full).toBe(problem);
    expect(canvasSummary(canvas(text('p1', 'alpha beta, gamma delta')), 14)!.text).toBe('alpha beta…');
  });

  it('cuts one very long word at a character boundary rather than keep almost nothing', () => {
    const url = `See https://example.com/${'a'.repeat(200)}`;
    const s = canvasSummary(canvas(text('p1', url)), 20)!;
    expect(s.text).toBe('See https://example…');
  });

  it('cuts text written without spaces at a word boundary', () => {
    const s = canvasSummary(canvas(text('p1', '我们需要决定数据库的选择以及迁移计划和时间表')), 10)!;
    expect(s.cut).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(graphemes(s.text)).toBeLessThanOrEqual(10);
    expect(s.full.startsWith(s.text.slice(0, -1))).toBe(true);
  });

  it('never splits a character a reader sees as one', () => {
    const family = '👩‍👩‍👧‍👦';
    const s = canvasSummary(canvas(text('p1', family.repeat(30))), 5)!;
    expect(s.text).toBe(`${family.repeat(4)}…`);
    const accents = 'e\u0301'.repeat(30);
    expect(canvasSummary(canvas(text('p1', accents)), 5)!.text).toBe(`${'e\u0301'.repeat(4)}…`);
  });

  it('holds for any text: at most the limit, a prefix of the whole, cut exactly when too long', () => {
    const char = fc.constantFrom('a', 'bc', ' ', '\n', ',', '-', 'é', '字', '😀', 'e\u0301', '\u2067');
    fc.assert(
      fc.property(fc.array(char, { minLength: 1, maxLength: 120 }), fc.integer({ min: 2, max: 90 }), (parts, limit) => {
        const t = `w${parts.join('')}`;
        const s = canvasSummary(canvas(text('p1', t)), limit)!;
        expect(graphemes(s.text)).toBeLessThanOrEqual(limit);
        expect(s.cut).toBe(graphemes(s.full) > limit);
        if (s.cut) expect(s.full.startsWith(s.text.slice(0, -1))).toBe(true);
        else expect(s.text).toBe(s.full);
        expect(s.text).not.toMatch(/\n|^\s|\s$/u);
      }),
    );
  });

  it('cuts printable ASCII before the space the word boundaries give, without making a segmenter', async () => {
    // The last space at or before the room, found by ICU's word boundaries: what the cut keeps.
    const words = new Intl.Segmenter('en', { granularity: 'word' });
    const spaceAt = (line: string, room: number) => Math.max(0, ...Array.from(words.segment(line), (g) => (g.segment === ' ' && g.index <= room ? g.index : 0)));
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-zA-Z0-9,.;:'()-]{1,14}$/), { minLength: 2, maxLength: 40 }), fc.integer({ min: 2, max: 90 }), (parts, limit) => {
        const line = parts.join(' ');
        const s = canvasSummary(canvas(text('p1', line)), limit)!;
        const at = spaceAt(line, limit - 1);
        if (!s.cut || at < Math.ceil((limit - 1) / 2)) return;
        const kept = line.slice(0, at);
        expect(s.text).toBe(`${kept.replace(/[\s,;:.\-/\\]+$/u, '') || kept}…`);
      }),
    );
    vi.resetModules();
    const fresh = await import('../../src/model/canvas-summary.js');
    const Original = Intl.Segmenter;
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    let made = 0;
    intl.Segmenter = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made++;
      }
    };
    try {
      expect(fresh.canvasSummary(canvas(text('p1', 'alpha beta, gamma delta')), 14)!.text).toBe('alpha beta…');
      expect(made).toBe(0);
      expect(fresh.canvasSummary(canvas(text('p1', 'déjà vu, encore une fois')), 14)!.cut).toBe(true);
      expect(made).toBeGreaterThan(0);
    } finally {
      intl.Segmenter = Original;
    }
  });
});
