import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, repoState, tempWorkspace } from '../../helpers/workspace.js';

function writeRow(ws: Workspace, ledger: string, body: string | Buffer): string {
  mkdirSync(ws.ledgerDir, { recursive: true });
  const path = join(ws.ledgerDir, `${ledger}.json`);
  writeFileSync(path, body);
  return path;
}

async function texts(ws: Workspace, ledger: string): Promise<string[]> {
  const { canvas } = await readCanvas(ws, { ledger });
  return canvas.children.map((n) => (n.type === 'text' ? n.text : `(${n.type})`));
}

const open = (ws: Workspace, over: Record<string, string> = {}) => openCanvas(ws, { ledger: 'task-1', why: 'the task was opened', author: AUTHOR, ...over });

describe('canvas open joins the ledger row (docs/store.md, "The ledger row")', () => {
  it('takes both values from the row, which it never writes', async () => {
    const ws = tempWorkspace();
    const path = writeRow(ws, 'task-1', JSON.stringify({ id: 'task-1', state: 'framed', problem: 'Logins time out.', expected_value: 'p99 under 2 s.' }));
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
    const o = await open(ws);
    expect(o).toMatchObject({ outcome: 'applied', nodes: [expect.any(String), expect.any(String)] });
    expect(await texts(ws, 'task-1')).toEqual(['Logins time out.', 'p99 under 2 s.']);
    expect(readFileSync(path)).toEqual(before.bytes);
    expect(statSync(path).mtimeMs).toBe(before.mtime);
  });

  it('accepts each spelling of the expected value, and a byte order mark', async () => {
    for (const key of ['expectedValue', 'expected-value']) {
      const ws = tempWorkspace();
      writeRow(ws, 'task-1', `\uFEFF${JSON.stringify({ problem: 'P.', [key]: `E by ${key}.` })}`);
      expect((await open(ws)).outcome, key).toBe('applied');
      expect(await texts(ws, 'task-1')).toEqual(['P.', `E by ${key}.`]);
    }
  });

  it('takes the flags when there is no row', async () => {
    const ws = tempWorkspace();
    expect((await open(ws, { problem: 'From the flag.', expectedValue: 'Also the flag.' })).outcome).toBe('applied');
    expect(await texts(ws, 'task-1')).toEqual(['From the flag.', 'Also the flag.']);
  });

  it('puts the flags over the row, value by value', async () => {
    const ws = tempWorkspace();
    writeRow(ws, 'task-1', JSON.stringify({ problem: 'Row problem.', expected_value: 'Row value.' }));
    expect((await open(ws, { problem: 'Flag problem.' })).outcome).toBe('applied');
    expect(await texts(ws, 'task-1')).toEqual(['Flag problem.', 'Row value.']);
    const ws2 = tempWorkspace();
    writeRow(ws2, 'task-1', '{ this is not JSON');
    expect((await open(ws2, { problem: 'A.', expectedValue: 'B.' })).outcome, 'a row not needed is not read').toBe('applied');
  });

  it('refuses a value neither source gives, naming both, and writes nothing', async () => {
    const ws = tempWorkspace();
    const none = await open(ws);
    expect(none).toMatchObject({ outcome: 'rejected', code: 'USAGE', data: { missing: ['--problem', '--expected-value'], row: join(ws.ledgerDir, 'task-1.json') } });
    expect(none.outcome === 'rejected' && none.reason).toMatch(/--problem and --expected-value not given, and there is no ledger row .*task-1\.json/);
    writeRow(ws, 'task-1', JSON.stringify({ problem: 'Only the problem.', expected_value: null }));
    const half = await open(ws);
    expect(half).toMatchObject({ outcome: 'rejected', code: 'USAGE', data: { missing: ['--expected-value'] } });
    expect(half.outcome === 'rejected' && half.reason).toMatch(/--expected-value not given, and the ledger row .*task-1\.json has no "expected_value"/);
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('refuses a malformed row with its path and the JSON error, and writes nothing', async () => {
    const ws = tempWorkspace();
    const path = writeRow(ws, 'task-1', '{"problem": "P.", "expected_value": ');
    let parserSays = '';
    try {
      JSON.parse('{"problem": "P.", "expected_value": ');
    } catch (e) {
      parserSays = (e as Error).message;
    }
    const o = await open(ws);
    expect(o).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ROW', data: { path } });
    expect(o.outcome === 'rejected' && o.reason).toBe(`the ledger row ${path} is not JSON: ${parserSays}`);
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('refuses a row that is not a JSON object of strings, or spells a value twice differently', async () => {
    const cases: Array<[string | Buffer, RegExp]> = [
      ['[1, 2]', /is not a JSON object \(it holds an array\)/],
      ['"text"', /is not a JSON object \(it holds a string\)/],
      ['{"problem": 42, "expected_value": "E."}', /has "problem" as a number, not a string/],
      ['{"problem": "P.", "expected_value": ["E."]}', /has "expected_value" as an array/],
      ['{"problem": "P.", "expected_value": "one", "expectedValue": "two"}', /has both "expected_value" and "expectedValue", and they differ/],
      [Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), /is not UTF-8: byte 2 is malformed/],
    ];
    for (const [body, message] of cases) {
      const ws = tempWorkspace();
      writeRow(ws, 'task-1', body);
      const o = await open(ws);
      expect(o, String(body)).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ROW' });
      expect(o.outcome === 'rejected' && o.reason, String(body)).toMatch(message);
      expect(repoState(ws).refs).toBe('(no repository)');
    }
    const ws = tempWorkspace();
    writeRow(ws, 'task-1', JSON.stringify({ problem: 'P.', expected_value: 'same', expectedValue: 'same' }));
    expect((await open(ws)).outcome, 'two spellings that agree are one value').toBe('applied');
  });

  it('refuses a row that is a named pipe at once, without blocking', async () => {
    const ws = tempWorkspace();
    mkdirSync(ws.ledgerDir, { recursive: true });
    execFileSync('mkfifo', [join(ws.ledgerDir, 'task-1.json')]);
    expect(await open(ws)).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ROW', data: { rule: 'regular-file' } });
  });

  it('refuses a blank value from the row, naming the row', async () => {
    const ws = tempWorkspace();
    writeRow(ws, 'task-1', JSON.stringify({ problem: '  \n', expected_value: 'E.' }));
    const o = await open(ws);
    expect(o).toMatchObject({ outcome: 'rejected', code: 'SCHEMA' });
    expect(o.outcome === 'rejected' && o.reason).toMatch(/"problem" of the ledger row .*task-1\.json is blank/);
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('checks the ledger id before it looks for a row', async () => {
    const ws = tempWorkspace();
    mkdirSync(join(ws.root, 'state'), { recursive: true });
    writeFileSync(join(ws.root, 'state', 'x.json'), JSON.stringify({ problem: 'P.', expected_value: 'E.' }));
    expect(await open(ws, { ledger: '../x' })).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ID' });
  });
});

describe('canvas open on the command line', () => {
  it('opens from the row with --json, and refuses neither source with exit 2 naming both', async () => {
    const ws = tempWorkspace();
    const none = await runMain(ws, ['open', 'cli-1', '--why', 'opened']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('USAGE');
    expect(none.stderr).toMatch(/--problem and --expected-value not given, and there is no ledger row .*cli-1\.json/);
    expect(repoState(ws).refs).toBe('(no repository)');
    writeRow(ws, 'cli-1', JSON.stringify({ problem: 'From the row.', expected_value: 'Also the row.' }));
    const ok = await runMain(ws, ['open', 'cli-1', '--expected-value', 'From the flag.', '--why', 'opened', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ outcome: 'applied', nodes: [expect.any(String), expect.any(String)] });
    expect(await texts(ws, 'cli-1')).toEqual(['From the row.', 'From the flag.']);
  });

  it('refuses a malformed row with exit 2, the path and the JSON error', async () => {
    const ws = tempWorkspace();
    const path = writeRow(ws, 'cli-2', '{"problem": }');
    const r = await runMain(ws, ['open', 'cli-2', '--why', 'opened', '--json']);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ROW', data: { path } });
    expect(out.reason).toContain(`the ledger row ${path} is not JSON: `);
    expect(repoState(ws).refs).toBe('(no repository)');
  });
});

describe('canvas open of a canvas that exists', () => {
  it('says CANVAS_EXISTS, with the hint to read it, before what values are missing or what the row lacks', async () => {
    const ws = tempWorkspace();
    expect((await runMain(ws, ['open', 'cli-3', '--problem', 'P.', '--expected-value', 'E.', '--why', 'opened'])).code).toBe(0);
    const state = repoState(ws);
    // No flags and no row; a malformed row; no reason either: the existing canvas comes first.
    const bare = await runMain(ws, ['open', 'cli-3', '--why', 'again', '--json']);
    expect(bare.code).toBe(2);
    expect(JSON.parse(bare.stdout)).toMatchObject({ outcome: 'rejected', code: 'CANVAS_EXISTS', hint: 'read it: canvas read cli-3' });
    writeRow(ws, 'cli-3', '{"problem": }');
    const human = await runMain(ws, ['open', 'cli-3']);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain('CANVAS_EXISTS');
    expect(human.stderr).toContain('canvas read cli-3');
    expect(repoState(ws)).toEqual(state);
    // The ledger id is still checked first, and a new canvas still hears what it lacks.
    expect(await open(ws, { ledger: '../cli-3' })).toMatchObject({ outcome: 'rejected', code: 'BAD_LEDGER_ID' });
    expect(await open(ws, { ledger: 'cli-4' })).toMatchObject({ outcome: 'rejected', code: 'USAGE' });
    expect(repoState(ws)).toEqual(state);
  });
});
