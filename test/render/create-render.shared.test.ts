// The one node dispatcher: every format's table has a handler per node type (checked by the
// compiler), and a type without one fails here, the same way in every format.
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import type { CanvasNode } from '../../src/model/types.js';
import { createRender, type Handlers } from '../../src/render/create-render.js';
import { renderBlock } from '../../src/render/comment/render-block.js';
import { renderLines } from '../../src/render/text/render-lines.js';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { renderNode } from '../../src/render/html/render-node.js';
import { renderPage } from '../../src/render/html/render-page.js';
import { snapshotOf } from './snapshot-of.js';

const names: Handlers<null, string> = {
  section: (n) => `section ${n.title}`,
  text: (n) => `text ${n.text}`,
  list: (n) => `list ${n.items.length}`,
  table: (n) => `table ${n.rows.length}`,
  figure: (n) => `figure ${n.kind}`,
  link: (n) => `link ${n.href}`,
  question: (n) => `question ${n.answered}`,
};

function codeOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e instanceof CanvasError ? { code: e.code, data: e.data } : e;
  }
  return 'no error';
}

describe('createRender', () => {
  it('calls the handler of the node type, with the node narrowed to it', () => {
    const render = createRender(names);
    const s = snapshotOf('<section id="s1" v="1" title="T"><text id="t1" v="1">x</text></section><list id="l1" v="1"><item>a</item><item>b</item></list>');
    expect(s.canvas.children.map((n) => render(n, null))).toEqual(['section T', 'list 2']);
  });

  it('keeps a table complete at compile time', () => {
    // @ts-expect-error: a table without a `question` handler does not type-check
    const partial: Handlers<null, string> = { section: () => '', text: () => '', list: () => '', table: () => '', figure: () => '', link: () => '' };
    expect(Object.keys(partial)).toHaveLength(6);
  });

  // A type the table lacks, including names every object inherits (a lookup without an own-key
  // check would find Object.prototype's `constructor`, `toString`, or `__proto__`).
  const strange = ['risk', 'constructor', 'toString', '__proto__', 'hasOwnProperty', ''];

  it.each(strange)('refuses the type "%s" with SCHEMA, naming the node and the type', (type) => {
    const node = { type, id: 'r1', v: 1 } as unknown as CanvasNode;
    expect(codeOf(() => createRender(names)(node, null))).toEqual({ code: 'SCHEMA', data: { node: 'r1', type } });
  });

  it('fails the same way in each format', () => {
    const node = { type: 'risk', id: 'r1', v: 1 } as unknown as CanvasNode;
    const s = snapshotOf('');
    s.canvas.children.push(node);
    const expected = { code: 'SCHEMA', data: { node: 'r1', type: 'risk' } };
    expect(codeOf(() => renderBlock(node, { snapshot: s, crossings: new Map(), titles: [], renderChildren: () => [] }))).toEqual(expected);
    expect(codeOf(() => renderLines(node, { crossings: new Map(), depth: 0, renderChildren: () => [] }))).toEqual(expected);
    expect(codeOf(() => renderNode(node, { snapshot: s, crossings: new Map(), figures: new Map(), canvasHref: null, depth: 0, renderChildren: () => [] }))).toEqual(expected);
    expect(codeOf(() => renderPage(s, { css: '' }))).toEqual(expected);
    expect(codeOf(() => renderComment(s))).toEqual(expected);
    expect(codeOf(() => renderPrompt(s))).toEqual(expected);
  });
});
