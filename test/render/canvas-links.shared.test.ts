import type { Element, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { renderPage } from '../../src/render/html/render-page.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { byId, classes, elements, parsePage, textOf } from './page-claims.js';
import { snapshotOf } from './snapshot-of.js';

/** The first element of a node's element with this tag (and class), or undefined; the node's id tag aside. */
function inNode(page: Root, id: string, tag: string, cls?: string): Element | undefined {
  const node = byId(page, id);
  if (!node) throw new Error(`no element ${id}`);
  return elements(node).find((e) => e.el.tagName === tag && !classes(e.el).includes('nid') && (cls === undefined || classes(e.el).includes(cls)))?.el;
}

const s = snapshotOf(
  '<link id="l1" v="1" href="canvas:store-substrate#k2xw">the decision</link><link id="l2" v="1" href="canvas:node-identity">ids</link>' + '<link id="l3" v="1" href="canvas:Not A Ledger">bad</link>',
);

describe('links between canvases in the projections (docs/links.md)', () => {
  it('on a page of a site: an anchor to the other canvas page, beside the index, and to the node', () => {
    const page = parsePage(renderPage(s, { css: '', index: '../index.html' }));
    expect(inNode(page, 'l1', 'a')?.properties.href).toBe('../store-substrate/index.html#k2xw');
    expect(classes(byId(page, 'l1')!)).toEqual(['node', 'link', 'canvas']);
    expect(inNode(page, 'l2', 'a')?.properties.href).toBe('../node-identity/index.html');
    // A malformed canvas: href is no link, as any other href that is not a web link.
    expect(inNode(page, 'l3', 'a')).toBeUndefined();
    expect(inNode(page, 'l3', 'code', 'href')).toBeDefined();
  });

  it('on a standalone page: no anchor, the href as code and what it names', () => {
    const page = parsePage(renderPage(s, { css: '' }));
    // Only the node's own id tag links (to itself): nothing points out of the page.
    expect(
      elements(byId(page, 'l1')!)
        .filter((e) => e.el.tagName === 'a')
        .map((e) => e.el.properties.href),
    ).toEqual(['#l1']);
    expect(classes(byId(page, 'l1')!)).toEqual(['node', 'link', 'canvas', 'inert']);
    expect(textOf(inNode(page, 'l1', 'code', 'href')!)).toBe('canvas:store-substrate#k2xw');
  });

  it('in the comment and the prompt: text naming the canvas and the node', () => {
    const comment = renderComment(s);
    expect(comment).toContain('the decision (canvas `store-substrate`, node `k2xw`)');
    expect(comment).toContain('ids (canvas `node-identity`)');
    expect(comment).not.toMatch(/\]\(canvas:/);
    const prompt = renderPrompt(s);
    expect(prompt).toContain('[l1] link: the decision <canvas:store-substrate#k2xw> (canvas store-substrate, node k2xw)');
    expect(prompt).toContain('[l2] link: ids <canvas:node-identity> (canvas node-identity)');
    expect(prompt).toContain('[l3] link: bad <canvas:Not A Ledger>\n');
  });
});
