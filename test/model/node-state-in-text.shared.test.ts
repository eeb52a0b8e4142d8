import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeState } from '../../src/model/diff-canvases.js';
import { indexNodes } from '../../src/model/index-nodes.js';
import { nodeStateInText } from '../../src/model/node-state-in-text.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import type { Canvas, CanvasNode } from '../../src/model/types.js';
import { ROOT } from '../helpers/workspace.js';

// A node's state cut out of the canonical text must be the state the whole document gives.

/** Every node's state both ways, and an id the document does not hold. */
function bothWays(text: string): void {
  const canvas = parseCanvas(text);
  for (const [id, entry] of indexNodes(canvas)) expect(nodeStateInText(text, canvas.ledger, id), id).toEqual(nodeState(entry.node, entry.parent));
  expect(nodeStateInText(text, canvas.ledger, 'zz9none')).toBeNull();
}

const chars = fc.constantFrom('a', ' ', '<', '>', '&', '"', "'", '\t', '\n', 'é', '😀', 'x', '/');
const text = fc.array(chars, { minLength: 1, maxLength: 14 }).map((a) => `w${a.join('')}`);
const line = text.map((t) => t.replace(/\n/g, ' '));

const block: fc.Arbitrary<Omit<CanvasNode, 'id' | 'v'>> = fc.oneof(
  text.map((t) => ({ type: 'text' as const, text: t })),
  fc.record({ t: text, answered: fc.boolean() }).map(({ t, answered }) => ({ type: 'question' as const, text: t, answered })),
  fc.record({ items: fc.array(text, { minLength: 1, maxLength: 3 }), ordered: fc.boolean() }).map((r) => ({ type: 'list' as const, ...r })),
  fc.array(fc.oneof(text, fc.constant('')), { minLength: 4, maxLength: 4 }).map((c) => ({ type: 'table' as const, rows: [c.slice(0, 2), c.slice(2)] })),
  fc.record({ href: line, label: text }).map((r) => ({ type: 'link' as const, ...r })),
  fc.record({ source: text, kind: fc.constantFrom('diagram' as const, 'mermaid' as const), caption: line }).map((r) => ({ type: 'figure' as const, ...r })),
);

const section = fc.record({
  title: line,
  kids: fc.array(
    fc.oneof(
      block,
      block,
      fc.record({ title: line }).map((s) => ({ type: 'section' as const, title: s.title, children: [] })),
    ),
    { maxLength: 3 },
  ),
});

const canvas: fc.Arbitrary<Canvas> = fc
  .array(
    fc.oneof(
      block.map((b) => ({ b, kids: null as null | Omit<CanvasNode, 'id' | 'v'>[] })),
      section.map((s) => ({ b: { type: 'section' as const, title: s.title, children: [] }, kids: s.kids })),
    ),
    { maxLength: 6 },
  )
  .map((items) => {
    let n = 0;
    const id = () => `n${(n++).toString(36)}`;
    return {
      ledger: 'prop',
      schema: '2' as const,
      children: items.map(({ b, kids }) => {
        const node = { ...b, id: id(), v: 1 } as CanvasNode;
        if (node.type === 'section') node.children = (kids ?? []).map((k) => ({ ...k, id: id(), v: 3 }) as CanvasNode);
        return node;
      }),
    };
  });

describe('nodeStateInText', () => {
  it('gives every node the state the whole document gives, for any canvas', () => {
    fc.assert(
      fc.property(canvas, (c) => bothWays(serializeCanvas(c))),
      { numRuns: 150 },
    );
  });

  it.each(['every-node-type', 'large'])('does so for every node of the %s golden', (name) => {
    // The golden's input has no ids: each node gets one (an SVG's own elements are not nodes),
    // and the document is written in canonical form, as the store writes it.
    let n = 0;
    const input = readFileSync(join(ROOT, 'snapshots', name, 'canvas.xml'), 'utf8')
      .split(/(<svg[\s\S]*?<\/svg>)/)
      .map((part) => (part.startsWith('<svg') ? part : part.replace(/<(section|text|list|table|figure|link|question)([ >])/g, (_, t, end) => `<${t} id="g${(n++).toString(36)}" v="1"${end}`)))
      .join('');
    const text = serializeCanvas(parseCanvas(input));
    expect(n).toBeGreaterThan(5);
    bothWays(text);
  });
});
