import { describe, expect, it } from 'vitest';
import { serializeCanvas } from '../../../src/model/serialize-canvas.js';
import type { SnapshotEdit } from '../../../src/model/snapshot.js';
import { renderPrompt } from '../../../src/render/text/render-prompt.js';
import { buildCase } from '../golden-cases.js';
import { REV, snapshotOf } from '../snapshot-of.js';

const NOTICE = 'NOTICE: this canvas is over its size budget';

function edit(i: number): SnapshotEdit {
  return { commit: `${String(i).padStart(2, '0')}${'a'.repeat(38)}`, op: 'insert', node: `n${i}`, author: 'leo | by-hand', reason: `reason ${i}`, date: '2026-01-01T00:00:00.000Z' };
}

describe('renderPrompt', () => {
  it('starts with the revision to write against and states the discipline', () => {
    const p = renderPrompt(snapshotOf('<text id="t1" v="1">x</text>'));
    expect(p.split('\n')[0]).toBe(`Canvas-Base: ${REV}`);
    expect(p).toContain('One node per edit');
    expect(p).toContain('--why: one line that says why');
    expect(p).toContain('Never quietly answer an open question');
    expect(p).toContain(`--base ${REV}`);
  });

  it('lists the open questions, and shows the document with node ids', () => {
    const p = renderPrompt(
      snapshotOf('<section id="s1" v="1" title="Open"><question id="q1" v="1">Who owns it?</question><question id="q2" v="1" answered="true">Done? Yes.</question></section><text id="t1" v="1">a\nb</text>'),
    );
    expect(p).toContain('Open questions (1):\n- [q1] Who owns it?\n');
    expect(p).toContain('[s1] section “Open”\n  [q1] OPEN QUESTION: Who owns it?\n  [q2] answered question: Done? Yes.\n[t1] text: a\n    b\n');
  });

  it('shows the last N edits with their reasons, newest first', () => {
    const recentEdits = [1, 2, 3, 4, 5].map(edit);
    const p = renderPrompt(snapshotOf('<text id="t1" v="1">x</text>', { recentEdits }), { edits: 3 });
    expect(p).toContain('Recent edits (newest first, 3):');
    expect(p).toContain('- 01aaaaa insert n1 by leo | by-hand, 2026-01-01 00:00 UTC: reason 1\n- 02aaaaa');
    expect(p).toContain('reason 3');
    expect(p).not.toContain('reason 4');
  });

  it('measures the budget on the canvas read output: at the budget no notice, one character over a notice at the top', () => {
    const s = snapshotOf('<text id="t1" v="1">x</text>');
    const size = `Canvas-Base: ${s.revision}\n${serializeCanvas(s.canvas)}`.length;
    expect(renderPrompt(s, { budget: size })).not.toContain(NOTICE);
    const over = renderPrompt(s, { budget: size - 1 });
    expect(over.startsWith(NOTICE)).toBe(true);
    expect(over).toContain(`${size} characters of \`canvas read\` output against a budget of ${size - 1}`);
  });

  it('sends a canvas over the 20,000-character budget whole, with the notice, never truncated', async () => {
    const s = await buildCase('large');
    const read = `Canvas-Base: ${s.revision}\n${serializeCanvas(s.canvas)}`;
    expect(read.length).toBeGreaterThan(20_000);
    const p = renderPrompt(s);
    expect(p.startsWith(NOTICE)).toBe(true);
    const walk = (nodes: typeof s.canvas.children): void => {
      for (const n of nodes) {
        expect(p).toContain(`[${n.id}]`);
        if (n.type === 'text' || n.type === 'question') expect(p).toContain(n.text);
        if (n.type === 'list') for (const item of n.items) expect(p).toContain(item);
        if (n.type === 'section') walk(n.children);
      }
    };
    walk(s.canvas.children);
  });

  it('sends a small canvas without the notice', async () => {
    const p = renderPrompt(await buildCase('options-decided'));
    expect(p).not.toContain(NOTICE);
  });
});
