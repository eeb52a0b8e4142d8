import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { importMarkdown } from '../../src/import/import-markdown.js';
import { CanvasError } from '../../src/model/canvas-error.js';
import type { CanvasNode } from '../../src/model/types.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { nodeHistory } from '../../src/store/read/node-history.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { AUTHOR, repoState, tempWorkspace } from '../helpers/workspace.js';

const WHY = 'bring the decision record in';

const DOC = `---
status: accepted
---
# Use a canvas

## Context

We need *one* place.

- a
  - b

## Options

| Option | Cost |
|---|---|
| canvas | low |

\`\`\`sh
canvas read x
\`\`\`

![plan](plan.png)

<https://example.test/adr>
`;

function git(repo: string, args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

async function refusal(p: Promise<unknown>): Promise<CanvasError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('importMarkdown', () => {
  it('births the canvas through create and one insert per node, in document order, sections holding their blocks', async () => {
    const ws = tempWorkspace();
    const result = await importMarkdown(ws, { ledger: 'adr-1', markdown: DOC, why: WHY, author: AUTHOR, source: 'adr-1.md' });
    const read = await readCanvas(ws, { ledger: 'adr-1' });
    expect(result.revision).toBe(read.revision);
    expect(result.blocks).toBe(10);
    expect(result.nodes.map((n) => [n.type, n.line])).toEqual([
      ['list', 1],
      ['text', 4],
      ['section', 6],
      ['text', 8],
      ['list', 10],
      ['section', 13],
      ['table', 15],
      ['text', 19],
      ['link', 23],
      ['link', 25],
    ]);
    const strip = (n: CanvasNode): unknown => {
      const { id: _i, v: _v, ...rest } = n;
      return n.type === 'section' ? { ...rest, children: n.children.map(strip) } : rest;
    };
    expect(read.canvas.children.map(strip)).toEqual([
      { type: 'list', ordered: false, items: ['status: accepted'] },
      { type: 'text', text: 'Use a canvas' },
      {
        type: 'section',
        title: 'Context',
        children: [
          { type: 'text', text: 'We need one place.' },
          { type: 'list', ordered: false, items: ['a', '- b'] },
        ],
      },
      {
        type: 'section',
        title: 'Options',
        children: [
          {
            type: 'table',
            rows: [
              ['Option', 'Cost'],
              ['canvas', 'low'],
            ],
          },
          { type: 'text', text: 'canvas read x' },
          { type: 'link', href: 'plan.png', label: 'plan' },
          { type: 'link', href: 'https://example.test/adr', label: 'https://example.test/adr' },
        ],
      },
    ]);
    // The ids the result names are the ids in the canvas, in document order.
    const ids: string[] = [];
    const walk = (n: CanvasNode): void => {
      ids.push(n.id);
      if (n.type === 'section') n.children.forEach(walk);
    };
    read.canvas.children.forEach(walk);
    expect(result.nodes.map((n) => n.id)).toEqual(ids);
    expect(result.flattened.map((f) => f.line)).toEqual([8, 10, 19]);
  });

  it('writes one commit per node with a reason naming the source line and block, each insert based on the write before it', async () => {
    const ws = tempWorkspace();
    const result = await importMarkdown(ws, { ledger: 'adr-2', markdown: DOC, why: WHY, author: AUTHOR, source: 'adr-2.md' });
    const log = git(ws.repo, ['log', '--reverse', '--format=%H%x1f%s%x1f%(trailers:key=Canvas-Base,valueonly,separator=)%x1f%(trailers:key=Canvas-Previous,valueonly,separator=)'])
      .trim()
      .split('\n')
      .map((l) => l.split('\x1f'));
    expect(log).toHaveLength(result.nodes.length + 1);
    expect(log[0]![1]).toBe(`create: ${WHY} (import: adr-2.md)`);
    for (const [i, n] of result.nodes.entries()) {
      const [sha, subject, base, previous] = log[i + 1]!;
      expect(subject).toMatch(new RegExp(`^insert ${n.id}: ${WHY} \\(import: adr-2\\.md line ${n.line}: [a-z0-9 (#)]+\\)$`));
      expect(base).toBe(log[i]![0]);
      expect(previous).toBe(log[i]![0]);
      const history = await nodeHistory(ws, { ledger: 'adr-2', node: n.id });
      expect(history.map((h) => [h.commit, h.op])).toEqual([[sha, 'insert']]);
    }
    expect(log.map((l) => l[1]).slice(1, 4)).toEqual([
      `insert ${result.nodes[0]!.id}: ${WHY} (import: adr-2.md line 1: front matter)`,
      `insert ${result.nodes[1]!.id}: ${WHY} (import: adr-2.md line 4: heading 1)`,
      `insert ${result.nodes[2]!.id}: ${WHY} (import: adr-2.md line 6: section (##))`,
    ]);
  });

  it('cuts a long reason so every commit stays within 500 code points, keeping where the node came from', async () => {
    const ws = tempWorkspace();
    const why = `${'é'.repeat(499)}!`;
    const result = await importMarkdown(ws, { ledger: 'long', markdown: '# T\n\nbody\n', why, author: AUTHOR, source: 'long.md' });
    const history = await nodeHistory(ws, { ledger: 'long', node: result.nodes[1]!.id });
    const reason = history[0]!.reason;
    expect([...reason].length).toBe(500);
    expect(reason.endsWith('… (import: long.md line 3: paragraph)')).toBe(true);
  });

  it("refuses an existing canvas with the store's CANVAS_EXISTS and writes nothing", async () => {
    const ws = tempWorkspace();
    const created = await createCanvas(ws, { ledger: 'taken', why: 'there first', author: AUTHOR });
    expect(created.outcome).toBe('applied');
    const before = repoState(ws);
    const e = await refusal(importMarkdown(ws, { ledger: 'taken', markdown: DOC, why: WHY, author: AUTHOR }));
    expect(e.code).toBe('CANVAS_EXISTS');
    expect(repoState(ws)).toEqual(before);
  });

  it('refuses a block the schema cannot hold with IMPORT_FAILED naming its line, before any write', async () => {
    const ws = tempWorkspace();
    const e = await refusal(importMarkdown(ws, { ledger: 'bad', markdown: '# T\n\nfine\n\nnot \uFFFE fine\n', why: WHY, author: AUTHOR, source: 'bad.md' }));
    expect(e.code).toBe('IMPORT_FAILED');
    expect(e.data).toMatchObject({ line: 5, kind: 'paragraph', code: 'SCHEMA' });
    expect(e.message).toContain('bad.md line 5');
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('refuses a document with nothing to import (IMPORT_FAILED) and writes nothing', async () => {
    const ws = tempWorkspace();
    const e = await refusal(importMarkdown(ws, { ledger: 'empty', markdown: '\n---\n\n', why: WHY, author: AUTHOR }));
    expect(e.code).toBe('IMPORT_FAILED');
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('refuses a bad ledger id, reason or author before reading anything', async () => {
    const ws = tempWorkspace();
    expect((await refusal(importMarkdown(ws, { ledger: 'Bad Id', markdown: DOC, why: WHY, author: AUTHOR }))).code).toBe('BAD_LEDGER_ID');
    expect((await refusal(importMarkdown(ws, { ledger: 'ok', markdown: DOC, why: '  ', author: AUTHOR }))).code).toBe('BAD_REASON');
    expect((await refusal(importMarkdown(ws, { ledger: 'ok', markdown: DOC, why: 'two\nlines', author: AUTHOR }))).code).toBe('BAD_REASON');
    expect((await refusal(importMarkdown(ws, { ledger: 'ok', markdown: DOC, why: WHY, author: '' }))).code).toBe('BAD_AUTHOR');
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('drops refused control characters, reports them, and the canvas holds none', async () => {
    const ws = tempWorkspace();
    const result = await importMarkdown(ws, { ledger: 'ctrl', markdown: '# T\u0001itle\n\nbo\u001Bdy\n', why: WHY, author: AUTHOR });
    const read = await readCanvas(ws, { ledger: 'ctrl' });
    expect(read.canvas.children).toMatchObject([{ text: 'Title' }, { text: 'body' }]);
    expect(result.flattened).toEqual([
      { line: 1, what: 'control character U+0001 dropped (the schema refuses it)' },
      { line: 3, what: 'control character U+001B dropped (the schema refuses it)' },
    ]);
  });
});
