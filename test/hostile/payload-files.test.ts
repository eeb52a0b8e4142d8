import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readInputFile } from '../../src/cli/read-input-file.js';
import { firstBadUtf8 } from '../../src/model/decode-utf8-strict.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

// docs/cli.md "Payload files": --xml-file and --markdown name a regular file or `-`, are decoded
// as strict UTF-8 (refused with the byte offset, never patched with U+FFFD), and are at most the
// input limit of docs/canonical.md.

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? utf8(p) : Buffer.from(p))));

/** Malformed payload files, each with the offset of its first bad byte. */
const MALFORMED: Array<[string, Buffer, number]> = [
  ['a stray 0xff', bytes('<text>bad ', [0xff], ' byte</text>'), 10],
  ['a lone continuation byte', bytes('<text>', [0x80], '</text>'), 6],
  ['an overlong slash (0xc0 0xaf)', bytes('<text>', [0xc0, 0xaf], '</text>'), 6],
  ['an overlong three-byte form (0xe0 0x80 0xaf)', bytes('<text>', [0xe0, 0x80, 0xaf], '</text>'), 6],
  ['an encoded surrogate (0xed 0xa0 0x80)', bytes('<text>é', [0xed, 0xa0, 0x80], '</text>'), 8],
  ['a code point above U+10FFFF', bytes('<text>', [0xf4, 0x90, 0x80, 0x80], '</text>'), 6],
  ['a sequence cut short before text', bytes('<text>', [0xe2, 0x82], 'x</text>'), 6],
  ['a sequence cut short at the end of the file', bytes('<text>x</text>', [0xe2, 0x82]), 14],
  ['a bad byte inside an attribute', bytes('<link href="https://example.org/', [0xfe], '">l</link>'), 32],
  ['a bad byte after a byte order mark', bytes([0xef, 0xbb, 0xbf], '<text>', [0xff], '</text>'), 9],
];

let ws: Workspace;
let base: string;
let dir: string;

beforeAll(async () => {
  ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'pf', why: 'payload files', author: 'leo | by-hand' });
  base = (await readCanvas(ws, { ledger: 'pf' })).revision;
  dir = join(ws.root, 'files');
  mkdirSync(dir);
});

function file(name: string, content: Buffer | string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('a payload file is decoded as strict UTF-8', () => {
  it.each(MALFORMED)('%s: BAD_ENCODING at its byte offset', (_name, content, offset) => {
    expect(firstBadUtf8(content)).toBe(offset);
    const p = file('bad.xml', content);
    expect(() => readInputFile(p, '--xml-file')).toThrow(expect.objectContaining({ code: 'BAD_ENCODING', data: { offset } }));
  });

  it('well-formed UTF-8 of every length is read as is, a byte order mark kept for the parser', () => {
    const text = '<text>a é € 𝄞</text>';
    expect(firstBadUtf8(utf8(text))).toBe(-1);
    expect(readInputFile(file('ok.xml', text), '--xml-file')).toBe(text);
    expect(readInputFile(file('bom.xml', bytes([0xef, 0xbb, 0xbf], text)), '--xml-file')).toBe(`\ufeff${text}`);
  });

  it('through the CLI: refused with the code and the offset, nothing written', async () => {
    const before = repoState(ws);
    const p = file('cli-bad.xml', MALFORMED[0]![1]);
    const r = await runCli(ws, ['insert', 'pf', '--into', 'root', '--xml-file', p, '--base', base, '--why', 'bad bytes', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'BAD_ENCODING', data: { offset: 10 } });
    const md = file('bad.md', bytes('# Title\n\nText ', [0xc3], '\n'));
    const i = await runCli(ws, ['import', 'pf2', '--markdown', md, '--why', 'import bad bytes', '--json']);
    expect(i.code).toBe(2);
    expect(JSON.parse(i.stdout).error).toMatchObject({ code: 'BAD_ENCODING', data: { offset: 14 } });
    expect(repoState(ws)).toEqual(before);
  });

  it('a doubled byte order mark is refused, not dropped silently', async () => {
    const before = repoState(ws);
    const p = file('two-boms.xml', bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '<text>two marks</text>'));
    const r = await runCli(ws, ['insert', 'pf', '--into', 'root', '--xml-file', p, '--base', base, '--why', 'two marks', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).code).toBe('XML_PARSE');
    expect(repoState(ws)).toEqual(before);
  });
});

describe('a payload file is a regular file or -', () => {
  it('a named pipe with no writer is refused at once, not waited on', async () => {
    const fifo = join(dir, 'pipe.xml');
    rmSync(fifo, { force: true });
    execFileSync('mkfifo', [fifo]);
    expect(() => readInputFile(fifo, '--xml-file')).toThrow(expect.objectContaining({ code: 'USAGE', data: expect.objectContaining({ rule: 'regular-file' }) }));
    const before = repoState(ws);
    const r = await runCli(ws, ['insert', 'pf', '--into', 'root', '--xml-file', fifo, '--base', base, '--why', 'a pipe', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('USAGE');
    const m = await runCli(ws, ['import', 'pf3', '--markdown', fifo, '--why', 'a pipe', '--json']);
    expect(JSON.parse(m.stdout).error.code).toBe('USAGE');
    expect(repoState(ws)).toEqual(before);
  });

  it('a directory and a device are refused', () => {
    for (const p of [dir, '/dev/zero', '/dev/null']) {
      expect(() => readInputFile(p, '--xml-file'), p).toThrow(expect.objectContaining({ code: 'USAGE', data: expect.objectContaining({ rule: 'regular-file' }) }));
    }
  });

  it('- reads the payload from standard input', async () => {
    const r = await runCli(ws, ['insert', 'pf', '--into', 'root', '--xml-file', '-', '--base', base, '--why', 'from a pipe', '--json'], {}, '<text>from stdin</text>');
    expect(r.code, r.stderr).toBe(0);
    expect((await readCanvas(ws, { ledger: 'pf' })).xml).toContain('from stdin');
  });

  it('standard input larger than a canvas may be is refused once past the limit, without claiming its size', async () => {
    const before = repoState(ws);
    const r = await runCli(ws, ['insert', 'pf', '--into', 'root', '--xml-file', '-', '--base', base, '--why', 'a dump', '--json'], {}, Buffer.alloc(3_000_000, 0x61));
    expect(r.code, r.stderr).toBe(2);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toContain('is more than 1,048,576 bytes');
    expect(error.message).not.toMatch(/is 1,0\d\d,\d\d\d bytes/);
    expect(repoState(ws)).toEqual(before);
  });

  it('a file larger than a canvas may be is refused before it is read', () => {
    const big = file('big.xml', Buffer.alloc(1_048_577, 0x61));
    expect(() => readInputFile(big, '--xml-file')).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});
