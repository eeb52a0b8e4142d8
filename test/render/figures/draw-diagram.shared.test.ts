import { createHash } from 'node:crypto';
import type { Element } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { drawDiagram } from '../../../src/render/figures/draw-diagram.js';
import { elementsWhere } from '../../helpers/hast-elements.js';

const SAMPLE = [
  'diagram 1',
  'node web "Web app"',
  'node api "API server with a rather long label that wraps onto lines"',
  'node db "Postgres"',
  'node q "Queue"',
  'web -> api "HTTPS" -> db "SQL"',
  'api -> q "enqueue jobs"',
  'q -- db',
  'q -> q "retry"',
  'group "Backend services" { api db q }',
  '',
].join('\n');

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

const byClass = (root: Element, name: string): Element[] => elementsWhere(root, (e) => Array.isArray(e.properties.className) && e.properties.className.includes(name));
const child = (e: Element, tag: string): Element => (e.children as Element[]).find((c) => c.type === 'element' && c.tagName === tag)!;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
function rect(e: Element): Rect {
  const p = e.properties;
  return { x: Number(p.x), y: Number(p.y), width: Number(p.width), height: Number(p.height) };
}
const inside = (a: Rect, b: Rect): boolean => a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
const overlap = (a: Rect, b: Rect): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('drawDiagram', () => {
  it('draws a small diagram to exactly these bytes (golden)', () => {
    expect(toHtml(drawDiagram('diagram 1\nA -> B "go"\n', { idPrefix: 'f1-' }))).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="72" height="161" viewBox="0 0 72 161" role="img" aria-label="Diagram with 2 nodes and 1 edge" class="canvas-diagram" font-family="system-ui, sans-serif" font-size="14">' +
        '<defs><marker id="f1-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0L10,5L0,10z" fill="#4a5568"></path></marker></defs>' +
        '<g class="diagram-groups"></g>' +
        '<g class="diagram-edges"><g class="diagram-edge" data-from="A" data-to="B"><path d="M36,46Q36,80.5 36,97.8L36,115" fill="none" stroke="#4a5568" stroke-width="1.5" marker-end="url(#f1-arrow)"></path><rect x="25.6" y="70" width="20.9" height="21" fill="#ffffff"></rect><text x="36" y="84.7" text-anchor="middle" font-size="12" fill="#2d3748">go</text></g></g>' +
        '<g class="diagram-nodes"><g class="diagram-node" data-node="A"><rect x="12" y="12" width="48" height="34" rx="6" fill="#ffffff" stroke="#4a5568" stroke-width="1.5"></rect><text x="36" y="33.9" text-anchor="middle" fill="#2d3748">A</text></g>' +
        '<g class="diagram-node" data-node="B"><rect x="12" y="115" width="48" height="34" rx="6" fill="#ffffff" stroke="#4a5568" stroke-width="1.5"></rect><text x="36" y="136.9" text-anchor="middle" fill="#2d3748">B</text></g></g></svg>',
    );
  });

  it('gives identical bytes for the same source, in both directions (pinned by hash)', () => {
    const down = toHtml(drawDiagram(SAMPLE));
    expect(toHtml(drawDiagram(SAMPLE))).toBe(down);
    expect(sha(down)).toBe('aa4219dc0284279083f63b41731a26b34b9828661f6799df913c147d6fba286a');
    const rightSource = SAMPLE.replace('diagram 1\n', 'diagram 1\ndirection right\n');
    const right = toHtml(drawDiagram(rightSource));
    expect(toHtml(drawDiagram(rightSource))).toBe(right);
    expect(sha(right)).toBe('7385c34f242ba6444f76cc819f31476b7335c882b673a4a345b3e0a8edb1230a');
    expect(right).not.toBe(down);
  });

  it('rounds every coordinate to one decimal', () => {
    const html = toHtml(drawDiagram(SAMPLE));
    const numbers = html.match(/-?\d+\.\d+/g) ?? [];
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(n).toMatch(/^-?\d+\.\d$/);
  });

  it('sizes the svg: width, height and a viewBox that match, role img and an aria-label', () => {
    const svg = drawDiagram(SAMPLE);
    const { width, height, viewBox, role, ariaLabel } = svg.properties;
    expect(svg.tagName).toBe('svg');
    expect(viewBox).toBe(`0 0 ${width} ${height}`);
    expect(Number(width)).toBeGreaterThan(100);
    expect(Number(height)).toBeGreaterThan(100);
    expect(role).toBe('img');
    expect(ariaLabel).toBe('Diagram with 4 nodes and 5 edges');
    expect(drawDiagram(SAMPLE, { label: 'The backend' }).properties.ariaLabel).toBe('The backend');
    // Everything drawn lies inside the canvas.
    const box = { x: 0, y: 0, width: Number(width), height: Number(height) };
    for (const r of elementsWhere(svg, (e) => e.tagName === 'rect')) expect(inside(rect(r), box)).toBe(true);
  });

  it('draws a group around its members with its label, and nodes that do not overlap', () => {
    const svg = drawDiagram(SAMPLE);
    const [group] = byClass(svg, 'diagram-group');
    expect(group).toBeDefined();
    const groupBox = rect(child(group!, 'rect'));
    expect(toHtml(child(group!, 'text'))).toContain('Backend services');
    const nodes = byClass(svg, 'diagram-node');
    expect(nodes.map((n) => n.properties.dataNode)).toEqual(['web', 'api', 'db', 'q']);
    const boxes = new Map(nodes.map((n) => [String(n.properties.dataNode), rect(child(n, 'rect'))]));
    for (const id of ['api', 'db', 'q']) expect(inside(boxes.get(id)!, groupBox)).toBe(true);
    expect(overlap(boxes.get('web')!, groupBox)).toBe(false);
    const list = [...boxes.values()];
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) expect(overlap(list[i]!, list[j]!)).toBe(false);
    // The group's label stands above its highest member.
    const labelY = Number(child(group!, 'text').properties.y);
    expect(labelY).toBeLessThan(Math.min(...['api', 'db', 'q'].map((id) => boxes.get(id)!.y)));
  });

  it('wraps a long node label into lines', () => {
    const api = byClass(drawDiagram(SAMPLE), 'diagram-node').find((n) => n.properties.dataNode === 'api')!;
    const tspans = elementsWhere(api, (e) => e.tagName === 'tspan');
    expect(tspans.length).toBeGreaterThan(1);
    expect(tspans.map((t) => toHtml(t.children)).join(' ')).toBe('API server with a rather long label that wraps onto lines');
  });

  it('puts an arrowhead on -> edges only, referencing the marker by its prefixed id', () => {
    const svg = drawDiagram('diagram 1\nA -> B\nB -- C', { idPrefix: 'fig7-' });
    const ids = elementsWhere(svg, (e) => e.properties.id !== undefined).map((e) => e.properties.id);
    expect(ids).toEqual(['fig7-arrow']);
    const paths = byClass(svg, 'diagram-edge').map((e) => child(e, 'path').properties.markerEnd);
    expect(paths).toEqual(['url(#fig7-arrow)', undefined]);
  });

  it('keeps two figures on one page apart by their prefixes', () => {
    const a = toHtml(drawDiagram('diagram 1\nA -> B', { idPrefix: 'one-' }));
    const b = toHtml(drawDiagram('diagram 1\nA -> B', { idPrefix: 'two-' }));
    const idsOf = (html: string): string[] => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(idsOf(a)).toEqual(['one-arrow']);
    expect(idsOf(b)).toEqual(['two-arrow']);
    expect(a).toContain('url(#one-arrow)');
    expect(b).toContain('url(#two-arrow)');
  });

  it('refuses an id prefix that cannot be an id', () => {
    for (const idPrefix of ['', '1a', 'a b', 'a)', 'x"']) {
      expect(() => drawDiagram('diagram 1\nA -> B', { idPrefix })).toThrow(expect.objectContaining({ code: 'USAGE' }));
    }
  });

  it('escapes hostile labels: they stay text, never markup', () => {
    const svg = drawDiagram('diagram 1\nnode x "</svg><script>alert(1)</script>"\nnode y "say \\"hi\\" & <b>bye</b>"\nx -> y "<img src=x onerror=alert(1)>"\ngroup "</text><script>" { y }', {
      label: '"><script>alert(2)</script>',
    });
    const html = toHtml(svg);
    // In an attribute value only the quote matters: it is escaped, so the value cannot end early.
    expect(html).toContain('aria-label="&#x22;><script>alert(2)</script>"');
    const outsideAttributes = html.replace(/"[^"]*"/g, '""');
    expect(outsideAttributes).not.toMatch(/<script/i);
    expect(outsideAttributes).not.toMatch(/<img/i);
    expect(outsideAttributes).not.toMatch(/<b>/);
    expect(html.match(/<svg/g)).toHaveLength(1);
    expect(html.match(/<\/svg>/g)).toHaveLength(1);
    expect(html).toContain('&#x3C;/svg>&#x3C;script>alert(1)');
    expect(html).toContain('say "hi" &#x26; &#x3C;b>bye&#x3C;/b>');
    expect(html).toContain('&#x3C;img src=x');
    expect(html).toContain('&#x3C;/text>&#x3C;script>');
    // The labels are text nodes of the tree.
    const texts = elementsWhere(svg, (e) => e.tagName === 'text' || e.tagName === 'tspan')
      .flatMap((e) => e.children)
      .filter((c) => c.type === 'text')
      .map((c) => (c as { value: string }).value)
      .join('');
    expect(texts).toContain('</svg><script>alert(1)</script>');
  });

  it('draws a self-loop touching its node', () => {
    const svg = drawDiagram('diagram 1\nA -> A "again"');
    const node = rect(child(byClass(svg, 'diagram-node')[0]!, 'rect'));
    const d = String(child(byClass(svg, 'diagram-edge')[0]!, 'path').properties.d);
    const m = /^M([\d.]+),([\d.]+)C.* ([\d.]+),([\d.]+)$/.exec(d);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeCloseTo(node.x + node.width, 0);
    expect(Number(m![3])).toBeCloseTo(node.x + node.width, 0);
    expect(toHtml(svg)).toContain('>again</text>');
  });

  it('still draws a large clustered graph on which dagre gives up (flat fallback)', () => {
    // dagre 3.1.3 throws "Not possible to find intersection inside of the rectangle" on this one
    // when the groups are clusters.
    const edges = [
      [82, 54, 140],
      [51, 12, 141],
      [79, 51, 173],
      [10, 28, 174],
      [99, 86, 175],
      [14, 66, 177],
      [27, 99, 178],
      [63, 19, 179],
      [94, 51, 180],
      [17, 75, 181],
      [57, 60, 185],
      [54, 15, 186],
      [29, 14, 189],
      [10, 84, 190],
      [51, 84, 191],
      [87, 94, 192],
      [19, 45, 194],
    ].map(([a, b, e]) => `n${a} -> n${b} "edge ${e}"`);
    const groups = [2, 3, 5, 9, 10, 12, 15, 16, 17].map((g) => `group "Group ${g}" { ${[0, 1, 2, 3, 4].map((k) => `n${g * 5 + k}`).join(' ')} }`);
    const svg = drawDiagram(['diagram 1', ...edges, ...groups].join('\n'));
    expect(byClass(svg, 'diagram-group')).toHaveLength(9);
    const boxes = new Map(byClass(svg, 'diagram-node').map((n) => [String(n.properties.dataNode), rect(child(n, 'rect'))]));
    const g2 = rect(child(byClass(svg, 'diagram-group')[0]!, 'rect'));
    for (const id of ['n10', 'n11', 'n12', 'n13', 'n14']) expect(inside(boxes.get(id)!, g2)).toBe(true);
  });

  it('throws DIAGRAM_SYNTAX for a source that does not parse', () => {
    try {
      drawDiagram('diagram 1\nA => B');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CanvasError);
      expect((e as CanvasError).code).toBe('DIAGRAM_SYNTAX');
      expect((e as CanvasError).data).toEqual({ line: 2, column: 3 });
    }
  });
});
