import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import { parseRetryAfter } from '../../src/model/parse-retry-after.js';

describe('CanvasError.toJSON (docs/errors.md): the one shape both edges print', () => {
  it('is code, message, hint, in that order, and data only when it holds anything', () => {
    expect(JSON.stringify(new CanvasError('NODE_NOT_FOUND', 'no node n9', 'run canvas read t1'))).toBe('{"code":"NODE_NOT_FOUND","message":"no node n9","hint":"run canvas read t1"}');
    expect(JSON.stringify({ error: new CanvasError('TOO_LARGE', 'too big', 'smaller', { size: 3 }) })).toBe('{"error":{"code":"TOO_LARGE","message":"too big","hint":"smaller","data":{"size":3}}}');
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it.each([
    [null, null],
    [undefined, null],
    ['', null],
    [' 7 ', 7000],
    ['0', 0],
    ['Tue, 01 Dec 2026 12:00:05 GMT', 5000],
    ['Tue, 01 Dec 2026 11:00:00 GMT', 0],
    ['soon', null],
  ])('%j is %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});
