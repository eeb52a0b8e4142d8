import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import type { CanvasCommit } from '../repo/canvas-commit.js';
import type { RepoReader } from '../repo/repo-reader.js';
import { readWorkingFile, writeWorkingFile } from '../files/working-file.js';
import type { EditContext } from './edit-input.js';
import { accessFile, canvasFile, PROPOSAL_ID, proposalFile } from '../repo/layout.js';

/**
 * The working files a canvas's revision may leave behind when a write is cut short after its
 * commit (docs/store.md, "Commits" and "Concurrency and crashes"): the canvas file and the access
 * file always, and the proposal file the revision names (a propose, an approval or a reject).
 */
function filesOf(ledger: string, revision: CanvasCommit | null): string[] {
  const files = [canvasFile(ledger), accessFile(ledger)];
  const proposal = revision?.trailers['Canvas-Proposal'];
  if (proposal !== undefined && PROPOSAL_ID.test(proposal)) files.push(proposalFile(ledger, proposal));
  return files;
}

/**
 * Check a canvas's working files against its revision, and repair the ones a crash left behind
 * (docs/store.md, "Concurrency and crashes"). A file equal to the revision's is in order. A
 * file that is missing, or equal to the one of the revision before (`Canvas-Previous`), is
 * lagging: a write was cut short after its commit; it is rewritten from the revision. A rewrite
 * that fails (a full disk) leaves it lagging for the next command, which is not this write's
 * failure. A file that matches neither was edited outside the tool: refused, left as it is.
 * Call it holding the repository lock.
 *
 * @param reader - the repository's reader
 * @param repo - the repository's work tree (`state/canvas`)
 * @param ledger - the canvas's ledger id
 * @param revision - the canvas's revision (its latest commit), or null before its create
 * @returns the paths rewritten (relative to `repo`)
 * @throws CanvasError `DIRTY_WORKTREE` (with `data.file`) for a file edited outside the tool
 */
async function checkWorkingFiles(reader: RepoReader, repo: string, ledger: string, revision: string | null): Promise<string[]> {
  const rev = revision ? await reader.commit(revision) : null;
  const previous = rev?.trailers['Canvas-Previous'];
  const repaired: string[] = [];
  for (const path of filesOf(ledger, rev)) {
    const have = readWorkingFile(repo, path);
    if (have === null && revision === null) continue;
    const want = revision ? await reader.file(revision, path) : null;
    if (want && have?.equals(want)) continue;
    if (have === null && want === null) continue;
    const before = previous ? await reader.file(previous, path) : null;
    if (want && (have === null || before?.equals(have))) {
      try {
        writeWorkingFile(repo, path, want);
        repaired.push(path);
      } catch {
        // Still lagging: the next command repairs it (a full disk is reported by the write itself).
      }
      continue;
    }
    const file = join(repo, path);
    if (revision === null || want === null) {
      throw new CanvasError(
        'DIRTY_WORKTREE',
        revision === null
          ? `${file} exists but no canvas ${ledger} was ever created; it was written outside the tool`
          : `${file} is not a file of canvas ${ledger} at its revision ${revision.slice(0, 12)}; it was written outside the tool`,
        `move the file away (it is left as it is), then ${revision === null ? `run canvas create ${ledger}` : 'make the change through the tool'}`,
        { file },
      );
    }
    throw new CanvasError(
      'DIRTY_WORKTREE',
      `${file} was edited outside the tool: it matches neither revision ${revision.slice(0, 12)} nor the one before; it is left as it is`,
      `save your change elsewhere, restore the file with \`git -C ${repo} show refs/canvas/${ledger}:${path} > ${file}\`, then make the change with ${path === canvasFile(ledger) ? 'canvas replace/insert' : 'the tool'}`,
      { file },
    );
  }
  return repaired;
}

/**
 * Refuse a working file edited outside the tool; repair one a crash left lagging one revision
 * behind (docs/store.md, "Concurrency and crashes"): every file the canvas's latest commit may
 * have touched, not only the canvas file.
 *
 * @throws CanvasError `DIRTY_WORKTREE`
 */
export async function checkWorkingFile(ctx: EditContext): Promise<void> {
  await checkWorkingFiles(ctx.reader, ctx.ws.repo, ctx.ledger, ctx.revision);
}
