import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importMarkdown } from '../../src/import/import-markdown.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { MADR_CORPUS } from './corpus.js';
import { AUTHOR } from './workspace.js';

/**
 * Import the MADR corpus's numbered decision records (`NNNN-*.md`, in order) into `ws` as
 * `canvas import` imports them, each as the canvas named by its file (lower case, the extension
 * dropped, anything else a dash). The corpus must exist (`MADR_CORPUS`, test/helpers/corpus.ts).
 *
 * @returns each record's file, ledger id and Markdown, in order
 */
export async function importMadrRecords(ws: Workspace): Promise<{ file: string; ledger: string; markdown: string }[]> {
  const corpus = MADR_CORPUS!;
  const files = readdirSync(corpus)
    .filter((f) => /^\d{4}-.*\.md$/.test(f))
    .sort();
  const records: { file: string; ledger: string; markdown: string }[] = [];
  for (const file of files) {
    const ledger = file
      .replace(/\.md$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .slice(0, 64);
    const markdown = readFileSync(join(corpus, file), 'utf8');
    await importMarkdown(ws, { ledger, markdown, why: 'seed the canvas from the MADR decision record', author: AUTHOR, source: file });
    records.push({ file, ledger, markdown });
  }
  return records;
}
