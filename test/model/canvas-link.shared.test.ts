import { describe, expect, it } from 'vitest';
import { canvasLinkTarget } from '../../src/model/canvas-link.js';
import { danglingLinks } from '../../src/model/dangling-links.js';
import { linksOf } from '../../src/model/links-of.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';

describe('canvas: links', () => {
  it.each([
    ['canvas:store-substrate', { ledger: 'store-substrate', node: null }],
    ['canvas:fix-login-3#k2xw', { ledger: 'fix-login-3', node: 'k2xw' }],
    ['canvas:a.b_c-d#x1', { ledger: 'a.b_c-d', node: 'x1' }],
  ])('reads %s as a link to a canvas', (href, target) => {
    expect(canvasLinkTarget(href)).toEqual(target);
  });

  it.each([
    'canvas:',
    'canvas:Store',
    'canvas:a b',
    ' canvas:store',
    'CANVAS:store',
    'canvas:store#',
    'canvas:store#K2',
    'canvas:store#x',
    'canvas:store#a#b',
    'canvas:store.xml',
    'canvas:a..b',
    'canvas:store.lock',
    'canvas:store\n',
    'canvas://store',
    'https://example.com/canvas:store',
  ])('does not read %j as a link to a canvas', (href) => {
    expect(canvasLinkTarget(href)).toBeNull();
  });

  it('lists every link node in document order with its kind, sections included', () => {
    const canvas = parseCanvas(
      '<canvas ledger="a" schema="2"><link id="l1" v="1" href="canvas:b#x1">one</link><section id="s1" v="1" title="S">' +
        '<link id="l2" v="1" href="https://example.com">two</link><link id="l3" v="1" href="Canvas:B">three</link></section>' +
        '<link id="l4" v="1" href="ftp://example.com">four</link></canvas>',
    );
    expect(linksOf(canvas)).toEqual([
      { node: 'l1', href: 'canvas:b#x1', label: 'one', kind: 'canvas', target: { ledger: 'b', node: 'x1' } },
      { node: 'l2', href: 'https://example.com', label: 'two', kind: 'web' },
      { node: 'l3', href: 'Canvas:B', label: 'three', kind: 'canvas' },
      { node: 'l4', href: 'ftp://example.com', label: 'four', kind: 'other' },
    ]);
  });

  it('warns of a link to no canvas, to no node, and a malformed one; judges no node of an unreadable canvas', () => {
    const link = (node: string, href: string) => ({ node, href, label: node, kind: 'canvas' as const, ...(canvasLinkTarget(href) ? { target: canvasLinkTarget(href)! } : {}) });
    const graph = new Map([
      [
        'a',
        {
          nodes: new Set(['l1', 'l2', 'l3', 'l4', 'l5', 'l6']),
          links: [link('l1', 'canvas:b#x1'), link('l2', 'canvas:b#zz9'), link('l3', 'canvas:gone'), link('l4', 'canvas:Bad'), link('l5', 'canvas:c#q1'), link('l6', 'canvas:a#l1')],
        },
      ],
      ['b', { nodes: new Set(['x1']), links: [link('m1', 'canvas:gone#x1')] }],
      ['c', { nodes: null, links: [] }],
    ]);
    expect(danglingLinks(graph, ['a']).map((w) => [w.ledger, w.node, w.problem])).toEqual([
      ['a', 'l2', 'no-node'],
      ['a', 'l3', 'no-canvas'],
      ['a', 'l4', 'malformed'],
    ]);
    expect(danglingLinks(graph, ['a', 'b']).at(-1)).toMatchObject({ ledger: 'b', node: 'm1', href: 'canvas:gone#x1', problem: 'no-canvas' });
  });
});
