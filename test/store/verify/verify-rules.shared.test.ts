import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFY_RULES } from '../../../src/store/verify/verify-rules.js';
import { ROOT } from '../../helpers/workspace.js';

describe('the rules verify names', () => {
  it("are each documented in docs/store.md's verify section, and nothing else is", () => {
    const doc = readFileSync(join(ROOT, 'docs/store.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Verify\n'));
    const end = section.indexOf('\n## ', 1);
    const rows = [...(end < 0 ? section : section.slice(0, end)).matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect([...rows].sort()).toEqual([...VERIFY_RULES].sort());
  });
});
