import { beforeAll, describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/model/canvas-error.js';
import { checkReason } from '../../src/model/check-reason.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, tempWorkspace } from '../helpers/workspace.js';

/** Every bidirectional embedding, override and isolate: U+202A-U+202E, U+2066-U+2069. */
const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
const uPlus = (cp: number) => `U+${cp.toString(16).toUpperCase()}`;

describe('a reason holding a bidirectional control is refused like other control characters', () => {
  it.each(BIDI.map((cp) => [uPlus(cp), cp] as const))('%s: BAD_REASON naming the code point', (name, cp) => {
    let error: unknown;
    try {
      checkReason(`approved ${String.fromCodePoint(cp)}by the owner`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CanvasError);
    expect((error as CanvasError).code).toBe('BAD_REASON');
    expect((error as CanvasError).data.codePoint).toBe(name);
  });

  it('characters of right-to-left scripts themselves stay allowed', () => {
    expect(checkReason('שלום: the Hebrew label is right')).toBe('שלום: the Hebrew label is right');
  });

  describe('on the command line, nothing written', () => {
    let ws: Workspace;
    let base = '';
    let node = '';
    beforeAll(async () => {
      ws = tempWorkspace('canvas-bidi-reason-');
      expect((await runMain(ws, ['create', 'bidi', '--why', 'a canvas'])).code).toBe(0);
      const read = await runMain(ws, ['read', 'bidi']);
      const out = await runMain(ws, ['insert', 'bidi', '--into', 'root', '--text', 'Plain.', '--base', baseOf(read.stdout), '--why', 'a node', '--json']);
      ({ node, revision: base } = JSON.parse(out.stdout) as { node: string; revision: string });
    });

    for (const [args, what] of [
      [() => ['replace', 'bidi', node, '--text', 'Changed.', '--base', base], 'replace'],
      [() => ['grant', 'bidi', 'cam', 'editor'], 'grant'],
      [() => ['freeze', 'bidi'], 'freeze'],
    ] as const) {
      it(`${what} with U+202E in --why: BAD_REASON, exit 2`, async () => {
        const before = repoState(ws);
        const r = await runMain(ws, [...args(), '--why', 'looks fine \u202Eeno siht', '--json']);
        expect(r.code, r.stdout).toBe(2);
        expect((JSON.parse(r.stdout) as { code: string }).code).toBe('BAD_REASON');
        expect(repoState(ws)).toEqual(before);
      });
    }
  });
});
