import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromHtml } from 'hast-util-from-html';
import type { Element, ElementContent, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { abandonCanvas, freezeCanvas, openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Outcome } from '../../src/store/repo/outcome.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

function applied(o: Outcome): { revision: string; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o;
}

function toText(n: ElementContent): string {
  if (n.type === 'text') return n.value;
  return n.type === 'element' ? n.children.map(toText).join('') : '';
}

function rows(root: Root): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (n: Root | Element) => {
    for (const c of n.children) {
      if (c.type !== 'element') continue;
      const id = String(c.properties.id ?? '');
      if (c.tagName === 'tr' && id.startsWith('canvas-')) {
        const cell = c.children.find((td): td is Element => td.type === 'element' && ((td.properties.className as string[] | undefined) ?? []).includes('ending'));
        out.set(id.slice('canvas-'.length), cell ? toText(cell) : '(no cell)');
      } else visit(c);
    }
  };
  visit(root);
  return out;
}

describe('the site index shows each canvas\'s latest ending (docs/store.md, "Endings")', () => {
  it('frozen, frozen and edited since, abandoned after a freeze, and never ended', async () => {
    const ws = tempWorkspace();
    const open = async (ledger: string) => applied(await openCanvas(ws, { ledger, problem: `The ${ledger} problem.`, expectedValue: 'Solved.', why: 'opened', author: AUTHOR }));
    await open('a-frozen');
    const f = applied(await freezeCanvas(ws, { ledger: 'a-frozen', why: 'done: shipped', author: AUTHOR }));
    const b = await open('b-edited');
    const bf = applied(await freezeCanvas(ws, { ledger: 'b-edited', why: 'done once', author: AUTHOR }));
    applied(await insertNode(ws, { ledger: 'b-edited', after: b.nodes![1], payload: { text: 'More, later.' }, base: bf.revision, why: 'found later', author: AUTHOR }));
    await open('c-abandoned');
    applied(await freezeCanvas(ws, { ledger: 'c-abandoned', why: 'done, we thought', author: AUTHOR }));
    const ca = applied(await abandonCanvas(ws, { ledger: 'c-abandoned', why: 'superseded by d-open', author: AUTHOR }));
    await open('d-open');
    const out = join(tempDir('canvas-index-'), 'site');
    const r = await runMain(ws, ['build', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const cells = rows(fromHtml(readFileSync(join(out, 'index.html'), 'utf8')));
    expect(Object.fromEntries(cells)).toEqual({
      'a-frozen': `frozen at ${f.revision.slice(0, 7)}: done: shipped`,
      'b-edited': `frozen at ${bf.revision.slice(0, 7)}; edited since: done once`,
      'c-abandoned': `abandoned at ${ca.revision.slice(0, 7)}: superseded by d-open`,
      'd-open': 'no',
    });
  });
});
