import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PayloadInput } from '../../../src/model/payload-from-input.js';
import { createCanvas, openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { AUTHOR, ROOT, repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';

describe('the library refuses malformed input with an outcome, never a TypeError', () => {
  it('payloads that are not exactly one string of xml, text, question or section; reasons, authors and ledgers of the wrong type', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'lib', why: 'library input', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'lib' })).revision;
    const before = repoState(ws);
    const write = (over: Record<string, unknown>) => insertNode(ws, { ledger: 'lib', into: 'root', payload: { text: 'x' }, base, why: 'x', author: AUTHOR, ...over } as never);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ payload: { text: 'x', question: 'y' } as unknown as PayloadInput }, 'USAGE'],
      [{ payload: {} }, 'USAGE'],
      [{ payload: null }, 'USAGE'],
      [{ payload: { text: 42 } }, 'USAGE'],
      [{ why: 42 }, 'BAD_REASON'],
      [{ why: 'lone \ud800 surrogate' }, 'BAD_REASON'],
      [{ why: 'a noncharacter \ufffe in a reason, which no text may hold' }, 'BAD_REASON'],
      [{ why: 'and \uffff' }, 'BAD_REASON'],
      [{ author: 7 }, 'BAD_AUTHOR'],
      [{ ledger: ['lib'] }, 'BAD_LEDGER_ID'],
      [{ payload: { text: 'a\ud800b' } }, 'SCHEMA'],
      [{ payload: { text: 'a\ufffeb' } }, 'SCHEMA'],
      [{ payload: { xml: '<text>a\ud800b</text>' } }, 'XML_PARSE'],
    ];
    for (const [over, code] of cases) {
      expect(await write(over), JSON.stringify(over)).toMatchObject({ outcome: 'rejected', code });
    }
    expect(repoState(ws)).toEqual(before);
  });

  it('a payload object is refused as strictly as the same node given as XML, with the same codes, and nothing is dropped', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'lib', why: 'library input', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'lib' })).revision;
    const before = repoState(ws);
    const write = (payload: unknown) => insertNode(ws, { ledger: 'lib', into: 'root', payload: payload as never, base, why: 'x', author: AUTHOR });
    const cases: Array<[unknown, string]> = [
      [{ type: 'section', title: 'S', children: [{ type: 'text', text: 'dropped before' }] }, 'PAYLOAD_CHILDREN'],
      [{ type: 'text', text: 'a', id: 'ab12' }, 'PAYLOAD_HAS_ID'],
      [{ type: 'text', text: 'a', v: 3 }, 'PAYLOAD_HAS_ID'],
      [{ type: 'text', text: 'a', class: 'x' }, 'SCHEMA'],
      [{ type: 'text', text: 'a', style: 'color: red' }, 'SCHEMA'],
      [{ type: 'question', text: 'q?', answered: 'yes' }, 'SCHEMA'],
      [{ type: 'div' }, 'SCHEMA'],
      [{ type: 'text' }, 'SCHEMA'],
      [{ type: 'text', text: 7 }, 'SCHEMA'],
      [{ type: 'text', text: '   ' }, 'SCHEMA'],
      [{ type: 'text', text: 'a\u0007b' }, 'SCHEMA'],
      [{ type: 'list', items: ['a', 2] }, 'SCHEMA'],
      [{ type: 'table', rows: [['a', 'b'], ['c']] }, 'SCHEMA'],
      [{ type: 'link', href: 'https://example.org' }, 'SCHEMA'],
      [{ type: 'figure', kind: 'diagram', source: 'diagram 1', svg: { type: 'element', name: 'svg', attributes: {}, children: [] } }, 'SCHEMA'],
      [{ type: 'figure', kind: 'svg', source: 'dropped', svg: { type: 'element', name: 'svg', attributes: { xmlns: 'http://www.w3.org/2000/svg' }, children: [] } }, 'SCHEMA'],
      [{ type: 'figure', kind: 'svg', svg: { type: 'element', name: 'svg x="1"', attributes: {}, children: [] } }, 'SCHEMA'],
      [Object.assign(Object.create({ inherited: true }), { type: 'text', text: 'a' }), 'SCHEMA'],
    ];
    for (const [payload, code] of cases) {
      expect(await write(payload), JSON.stringify(payload)).toMatchObject({ outcome: 'rejected', code });
    }
    expect(repoState(ws)).toEqual(before);
    // A good one is written exactly as the same node given as XML.
    const o = await write({ type: 'question', text: 'Who owns it?', answered: true });
    expect(o.outcome).toBe('applied');
    expect((await readCanvas(ws, { ledger: 'lib' })).xml).toMatch(/<question id="[a-z0-9]+" v="1" answered="true">Who owns it\?<\/question>/);
  });

  it('normalizes CRLF and CR in sugar text the way XML normalizes them', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'lib', why: 'library input', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'lib' })).revision;
    const o = await insertNode(ws, { ledger: 'lib', into: 'root', payload: { text: 'one\r\ntwo\rthree' }, base, why: 'x', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    expect((await readCanvas(ws, { ledger: 'lib' })).xml).toContain('one\ntwo\nthree');
  });

  it('open names the flag at fault and writes nothing', async () => {
    const ws = tempWorkspace();
    const o = await openCanvas(ws, { ledger: 'op', problem: 'fine', expectedValue: 'bad\u0001', why: 'x', author: AUTHOR });
    expect(o).toMatchObject({ outcome: 'rejected', code: 'SCHEMA', reason: expect.stringContaining('--expected-value') });
    expect(repoState(ws).refs).toBe('(no repository)');
  });
});

describe('the command line in a pipeline', () => {
  it('canvas read | head -1 gives the base line and exits quietly when the reader closes the pipe', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'big', why: 'a big canvas', author: AUTHOR });
    const base = (await readCanvas(ws, { ledger: 'big' })).revision;
    const list = `<list>${'<item>an item long enough to fill the pipe quickly</item>'.repeat(2000)}</list>`;
    expect((await insertNode(ws, { ledger: 'big', into: 'root', payload: { xml: list }, base, why: 'fill', author: AUTHOR })).outcome).toBe('applied');
    const r = spawnSync('bash', ['-c', `node ${join(ROOT, 'bin/canvas.js')} read big | head -1; echo "status \${PIPESTATUS[0]}"`], {
      env: { ...process.env, CANVAS_WORKSPACE: ws.root },
      encoding: 'utf8',
    });
    expect(r.stdout).toMatch(/^Canvas-Base: [0-9a-f]{40}\nstatus 0\n$/);
    expect(r.stderr).toBe('');
  });

  it('canvas with no command prints its help and exits 2; an option before the command says where options go', async () => {
    const none = await runCli(null, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: canvas');
    const early = await runCli(null, ['--workspace', '/tmp', 'verify']);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('options go after the command');
  });
});
