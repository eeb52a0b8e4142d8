import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, tempWorkspace } from '../helpers/workspace.js';

/**
 * A character a canvas cannot hold, sent inside `--xml` raw or as a numeric reference, is refused
 * as `--text` refuses it: `SCHEMA`, naming the code point and the node path, nothing written.
 */
describe('characters a canvas cannot hold inside an XML payload', () => {
  let ws: Workspace;
  let base = '';
  let section = '';

  beforeAll(async () => {
    ws = tempWorkspace('canvas-bad-chars-');
    expect((await runMain(ws, ['create', 'chars', '--why', 'a canvas for payloads'])).code).toBe(0);
    const read = await runMain(ws, ['read', 'chars']);
    const s = await runMain(ws, ['insert', 'chars', '--into', 'root', '--section', 'Payloads', '--base', baseOf(read.stdout), '--why', 'a section', '--json']);
    const applied = JSON.parse(s.stdout) as { node: string; revision: string };
    section = applied.node;
    base = applied.revision;
  });

  const CASES: Array<{ name: string; xml: string; codePoint: string; path: string }> = [
    { name: 'a hexadecimal reference in text', xml: '<text>back&#x8;space</text>', codePoint: 'U+0008', path: '/text' },
    { name: 'a decimal reference in an attribute', xml: '<link href="https://x.test/&#27;[2J">x</link>', codePoint: 'U+001B', path: '/link' },
    { name: 'a raw character in a list item', xml: '<list><item>fine</item><item>bell\u0007</item></list>', codePoint: 'U+0007', path: '/list/item[2]' },
    { name: 'a raw character in a table cell', xml: '<table><row><cell>a</cell><cell>b</cell></row><row><cell>c</cell><cell>\u0001</cell></row></table>', codePoint: 'U+0001', path: '/table/row[2]/cell[2]' },
    { name: 'U+FFFF as a reference', xml: '<question>&#xFFFF;?</question>', codePoint: 'U+FFFF', path: '/question' },
  ];

  for (const c of CASES) {
    it(`${c.name}: SCHEMA with ${c.codePoint} at ${c.path}, nothing written`, async () => {
      const before = repoState(ws);
      const r = await runMain(ws, ['insert', 'chars', '--into', section, '--xml', c.xml, '--base', base, '--why', 'a bad character', '--json']);
      expect(r.code, r.stdout).toBe(2);
      const out = JSON.parse(r.stdout) as { outcome: string; code: string; reason: string; data?: { codePoint?: string; path?: string } };
      expect(out.outcome).toBe('rejected');
      expect(out.code).toBe('SCHEMA');
      expect(out.data?.codePoint).toBe(c.codePoint);
      expect(out.data?.path).toBe(c.path);
      expect(out.reason).toContain(c.codePoint);
      expect(repoState(ws)).toEqual(before);
    });
  }

  it('the same from --xml-file, and on stderr without --json', async () => {
    const file = join(ws.root, 'payload.xml');
    writeFileSync(file, '<text>ok\n&#x0C;</text>\n');
    const before = repoState(ws);
    const r = await runMain(ws, ['insert', 'chars', '--into', section, '--xml-file', file, '--base', base, '--why', 'a bad character']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^canvas: SCHEMA: \/text: .*U\+000C/);
    expect(repoState(ws)).toEqual(before);
  });
});
