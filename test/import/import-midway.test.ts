import { describe, expect, it, vi } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';

// The third insert is refused as if another writer had broken the canvas meanwhile: the import
// must stop there and say where, and the canvas keeps what was imported before it.
vi.mock('../../src/store/write/node-writes.js', async (original) => {
  const real = await original<typeof import('../../src/store/write/node-writes.js')>();
  let calls = 0;
  return {
    ...real,
    insertNode: vi.fn(async (...args: Parameters<typeof real.insertNode>) => {
      calls += 1;
      if (calls === 3) {
        return { outcome: 'rejected', code: 'DIRTY_WORKTREE', reason: 'the working file was edited outside the tool', hint: 'restore it' } as const;
      }
      return real.insertNode(...args);
    }),
  };
});

describe('importMarkdown, an insert refused midway', () => {
  it('stops with IMPORT_FAILED naming the block, the line and the inner code; the canvas holds the nodes before it', async () => {
    const { importMarkdown } = await import('../../src/import/import-markdown.js');
    const ws = tempWorkspace();
    let error: unknown;
    try {
      await importMarkdown(ws, { ledger: 'mid', markdown: '# T\n\none\n\ntwo\n\nthree\n', why: 'bring it in', author: AUTHOR, source: 'mid.md' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CanvasError);
    const e = error as CanvasError;
    expect(e.code).toBe('IMPORT_FAILED');
    expect(e.data).toMatchObject({ line: 5, kind: 'paragraph', code: 'DIRTY_WORKTREE', imported: 2 });
    expect(e.message).toContain('mid.md line 5 (paragraph)');
    const read = await readCanvas(ws, { ledger: 'mid' });
    expect(read.revision).toBe(e.data.revision);
    expect(read.canvas.children).toMatchObject([{ text: 'T' }, { text: 'one' }]);
  });
});
