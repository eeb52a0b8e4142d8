import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkXmlDepth, MAX_DEPTH, NODE_DEPTH } from '../../src/model/check-xml-depth.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { AUTHOR, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

// docs/canonical.md "Size limits": a node nests at most 61 elements deep and a canvas 64; deeper
// XML is refused with the depth and the path before anything recursive sees it, never through a
// stack overflow.

const SVG = 'xmlns="http://www.w3.org/2000/svg"';
const groups = (n: number) => `<figure kind="svg"><svg ${SVG}>${'<g>'.repeat(n)}<rect width="1" height="1"/>${'</g>'.repeat(n)}</svg></figure>`;
const sections = (n: number) => `${'<section title="a">'.repeat(n)}${'</section>'.repeat(n)}`;

describe('a depth limit, not a stack overflow', () => {
  it('pins the documented figure', () => {
    expect([NODE_DEPTH, MAX_DEPTH]).toEqual([61, 64]);
  });

  it('10,000 nested sections and 5,000 nested SVG groups are refused as TOO_DEEP with the depth and the path, writing nothing', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'deep', why: 'depth', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'deep' })).revision;
    const before = repoState(ws);
    // figure and svg are two levels: NODE_DEPTH - 1 groups put the rect one level too deep.
    for (const xml of [sections(10_000), groups(5_000), groups(NODE_DEPTH - 1)]) {
      const o = await insertNode(ws, { ledger: 'deep', into: 'root', payload: { xml }, base, why: 'deep', author: AUTHOR });
      expect(o).toMatchObject({ outcome: 'rejected', code: 'TOO_DEEP', data: { depth: NODE_DEPTH + 1, limit: NODE_DEPTH } });
    }
    const o = await insertNode(ws, { ledger: 'deep', into: 'root', payload: { xml: groups(5_000) }, base, why: 'deep', author: AUTHOR });
    const path = (o as unknown as { data: { path: string } }).data.path;
    expect(path.startsWith('/figure/svg[1]/g[1]/g[1]/')).toBe(true);
    expect(path.split('/').length - 1).toBe(NODE_DEPTH + 1);
    expect(repoState(ws)).toEqual(before);
    for (const [name, xml] of [
      ['sections.xml', sections(10_000)],
      ['groups.xml', groups(5_000)],
    ]) {
      const file = join(ws.root, name!);
      writeFileSync(file, xml!);
      const r = await runCli(ws, ['insert', 'deep', '--into', 'root', '--xml-file', file, '--base', base, '--why', 'deep', '--json']);
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'rejected', code: 'TOO_DEEP' });
    }
    expect(repoState(ws)).toEqual(before);
  });

  it('an SVG figure exactly at the limit is taken, and fits in a nested section', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'deep', why: 'depth', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'deep' })).revision;
    const outer = await insertNode(ws, { ledger: 'deep', into: 'root', payload: { section: 'Outer' }, base, why: 'a section', author: AUTHOR });
    const o1 = outer as { node: string; revision: string };
    const inner = await insertNode(ws, { ledger: 'deep', into: o1.node, payload: { section: 'Inner' }, base: o1.revision, why: 'a nested one', author: AUTHOR });
    const i1 = inner as { node: string; revision: string };
    // figure, svg, then groups down to depth NODE_DEPTH with the rect inside the last one.
    const xml = groups(NODE_DEPTH - 3);
    const o = await insertNode(ws, { ledger: 'deep', into: i1.node, payload: { xml }, base: i1.revision, why: 'deep but fine', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    expect((await readCanvas(ws, { ledger: 'deep' })).xml).toContain('<rect');
  });

  it('counts elements only: comments, CDATA, instructions and quoted ">" do not nest', () => {
    const inert = `<!-- ${'<g>'.repeat(100)} --><![CDATA[${'<g>'.repeat(100)}]]><?x ${'<g>'.repeat(100)}?>`;
    expect(() => checkXmlDepth(`<text a="${'<g>'.repeat(100)}" b='>'>${inert}</text>`, 'x', MAX_DEPTH)).not.toThrow();
    expect(() => checkXmlDepth(`<a>${'<b/>'.repeat(1000)}</a>`, 'x', MAX_DEPTH)).not.toThrow();
    expect(() => checkXmlDepth(`${'<a>'.repeat(MAX_DEPTH)}${'</a>'.repeat(MAX_DEPTH)}`, 'x', MAX_DEPTH)).not.toThrow();
    expect(() => checkXmlDepth(`${'<a>'.repeat(MAX_DEPTH)}<b/>${'</a>'.repeat(MAX_DEPTH)}`, 'x', MAX_DEPTH)).toThrow(
      expect.objectContaining({ code: 'TOO_DEEP', data: expect.objectContaining({ path: expect.stringMatching(/\/b\[1\]$/) }) }),
    );
  });
});
