import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './workspace.js';

/**
 * The MADR decision records to test against (read from where they live, never copied into the
 * project): `$CANVAS_MADR_CORPUS`, else `../shared/corpus/madr` beside the checkout, else
 * `/work/shared/corpus/madr`. Null when none exists; tests that need it skip and say so.
 */
export const MADR_CORPUS: string | null =
  [process.env.CANVAS_MADR_CORPUS, join(ROOT, '..', 'shared', 'corpus', 'madr'), '/work/shared/corpus/madr'].find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p)) ?? null;

if (MADR_CORPUS === null) {
  process.stderr.write('note: the MADR corpus was not found (set CANVAS_MADR_CORPUS); the corpus tests are skipped\n');
}
