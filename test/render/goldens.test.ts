// The golden runner (STYLE habit 7): every case under snapshots/ is built, rendered three ways,
// and compared byte for byte. A missing golden is written; UPDATE=1 rewrites them all. Golden
// diffs are reviewed like code.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { pageOf } from './page-of.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { buildCase, caseNames, SNAPSHOTS } from './golden-cases.js';

const UPDATE = process.env.UPDATE === '1';

function compare(name: string, file: string, actual: string): void {
  const path = join(SNAPSHOTS, name, file);
  if (UPDATE || !existsSync(path)) {
    writeFileSync(path, actual);
    return;
  }
  expect(actual, `${name}/${file} differs from its golden; review the diff, then UPDATE=1 if it is right`).toBe(readFileSync(path, 'utf8'));
}

describe('goldens', () => {
  it('has the cases the projections promise to cover', () => {
    expect(caseNames()).toEqual(
      expect.arrayContaining(['crossings', 'empty', 'every-node-type', 'frozen', 'hostile-text', 'large', 'options-decided']),
    );
  });

  for (const name of caseNames()) {
    it(`${name}: page, comment and prompt match their goldens`, async () => {
      const snapshot = await buildCase(name);
      compare(name, 'page.html', await pageOf(snapshot));
      compare(name, 'comment.md', renderComment(snapshot));
      compare(name, 'prompt.txt', renderPrompt(snapshot));
    });
  }
});
