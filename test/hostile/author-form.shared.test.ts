import { describe, expect, it } from 'vitest';
import { parseAuthor } from '../../src/model/parse-author.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { AUTHOR, repoState, tempWorkspace } from '../helpers/workspace.js';

// docs/store.md "Author": the author is refused unless it is written exactly in the documented
// form, one space each side of every `|`; nothing is normalized.

const refusedForms = [
  ' leo',
  'leo ',
  'leo|step:x',
  'leo |step:x',
  'leo| step:x',
  'leo  | step:x',
  'leo | step:x ',
  'leo\t| by-hand',
  'leo |by-hand',
  'leo | by-hand ',
  'leo | step: x',
  'leo | step:x | run:y |',
  '\u00a0leo',
];

describe('an author not written in the documented form is refused, never normalized', () => {
  it.each(refusedForms)('%j: BAD_AUTHOR', (text) => {
    expect(() => parseAuthor(text)).toThrow(expect.objectContaining({ code: 'BAD_AUTHOR' }));
  });

  it.each(['leo', 'leo | by-hand', 'leo | step:x', 'leo | run:r-1', 'leo | step:x | run:y', 'a@b.c | step:s:1'])('%j is accepted as written', (text) => {
    expect(parseAuthor(text).text).toBe(text);
  });

  it('the hint gives the form written as it should be', () => {
    try {
      parseAuthor('leo|step:x');
      expect.unreachable();
    } catch (e) {
      expect((e as { hint: string }).hint).toContain('"leo | step:x"');
    }
  });

  it('a write by " leo" is rejected and writes nothing', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'au', why: 'authors', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'au' })).revision;
    const before = repoState(ws);
    for (const author of [' leo', 'leo|step:x']) {
      const o = await insertNode(ws, { ledger: 'au', into: 'root', payload: { text: 'x' }, base, why: 'x', author });
      expect(o).toMatchObject({ outcome: 'rejected', code: 'BAD_AUTHOR' });
    }
    expect(repoState(ws)).toEqual(before);
  });
});
