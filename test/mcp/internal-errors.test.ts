import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResult } from '../../src/mcp/tool-result.js';

/** The MCP server's faults (docs/mcp.md, docs/errors.md INTERNAL): one line on stderr, a stack trace only with CANVAS_DEBUG=1. */
describe('an MCP tool that fails with a bug', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.CANVAS_DEBUG;
  });

  function stderrOf(e: unknown): { text: string; result: ReturnType<typeof errorResult> } {
    let text = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      text += String(chunk);
      return true;
    });
    const result = errorResult(e, '2026-07-28');
    return { text, result };
  }

  it('writes its message without a stack trace, and answers INTERNAL with isError', () => {
    const { text, result } = stderrOf(new TypeError('boom'));
    expect(text).toBe('canvas mcp: INTERNAL: boom\n');
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text).error.code).toBe('INTERNAL');
  });

  it('writes the stack trace with CANVAS_DEBUG=1', () => {
    process.env.CANVAS_DEBUG = '1';
    const { text } = stderrOf(new TypeError('boom'));
    expect(text).toMatch(/^canvas mcp: INTERNAL: TypeError: boom\n\s+at /);
  });

  it('answers a full disk as NO_SPACE', () => {
    const e = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/x/y' });
    const { result } = stderrOf(e);
    expect(JSON.parse((result.content[0] as { text: string }).text).error).toMatchObject({ code: 'NO_SPACE', data: { path: '/x/y' } });
  });

  it('answers a file the system refused as PERMISSION_DENIED naming it, not as a bug', () => {
    for (const code of ['EACCES', 'EPERM', 'EROFS']) {
      const e = Object.assign(new Error(`${code}: refused, open '/w/state/canvas/.git/canvas.lock'`), { code, path: '/w/state/canvas/.git/canvas.lock' });
      const { text, result } = stderrOf(e);
      const { error } = JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string; hint: string; data: unknown } };
      expect(error).toMatchObject({ code: 'PERMISSION_DENIED', data: { path: '/w/state/canvas/.git/canvas.lock', errno: code } });
      expect(error.hint).not.toContain('bug');
      expect(text).toBe(`canvas mcp: PERMISSION_DENIED: the system refused access to /w/state/canvas/.git/canvas.lock (${code}${code === 'EROFS' ? ': a read-only file system' : ''})\n`);
    }
  });
});
