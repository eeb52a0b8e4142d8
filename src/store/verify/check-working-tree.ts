import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { checkRepoPath } from '../files/check-repo-path.js';
import { readWorkingFile, writeWorkingFile } from '../files/working-file.js';
import { runGit } from '../git/git.js';
import { PROPOSAL_ID, parseRepoPath } from '../repo/layout.js';
import type { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';
import type { Violation } from './verify-rules.js';

// The working tree against main (docs/store.md, "Verify": the rules `working-tree` and
// `unsafe-path`): a file one revision behind is repaired, any other difference reported.

function listWorkingFiles(dir: string, root: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const rel = relative(root, p);
    if (rel === '.git') continue;
    // lstat: a link is listed as itself, never followed out of the repository.
    const folder = lstatSync(p).isDirectory();
    // A first create's private folder (a live one, or one a killed create left less than an hour
    // ago: docs/store.md, "Temporary files"), not a working file.
    if (folder && dir === root && /^\.canvas-init-\d+-\d+$/.test(name)) continue;
    if (folder) listWorkingFiles(p, root, out);
    else out.push(rel);
  }
}

/**
 * The rule `unsafe-path` (docs/store.md, "Where the store writes"): a tracked file, or a
 * directory above it, that is a symbolic link or not a regular file or directory. Reported, never
 * repaired: the store does not write through it, and what a link points to is left as it is.
 */
function unsafePath(repo: string, path: string): Violation | null {
  try {
    checkRepoPath(repo, path);
    return null;
  } catch (e) {
    if (!(e instanceof CanvasError) || e.code !== 'UNSAFE_PATH') throw e;
    const ledger = parseRepoPath(path)?.ledger;
    return { rule: 'unsafe-path', code: 'UNSAFE_PATH', path, ...(ledger ? { ledger } : {}), message: e.message };
  }
}

export async function checkWorkingTree(
  ws: Workspace,
  reader: RepoReader,
  main: string,
  violations: Violation[],
  repaired: string[],
  repair: (what: string, fn: () => unknown) => Promise<boolean>,
): Promise<void> {
  const { stdout } = await runGit(ws.repo, ['-c', 'core.quotePath=false', 'ls-tree', '-r', '-z', main]);
  const tracked = new Map<string, string>();
  for (const entry of stdout.split('\x00').filter(Boolean)) {
    const tab = entry.indexOf('\t');
    tracked.set(entry.slice(tab + 1), entry.slice(0, tab).split(' ')[2]!);
  }
  const present: string[] = [];
  listWorkingFiles(ws.repo, ws.repo, present);
  for (const [path, sha] of tracked) {
    const unsafe = unsafePath(ws.repo, path);
    if (unsafe) {
      violations.push(unsafe);
      continue;
    }
    const want = await reader.object(sha);
    const have = readWorkingFile(ws.repo, path);
    if (want && have?.equals(want)) continue;
    // Lagging by one revision (a write cut short after its commit): repair it.
    const named = parseRepoPath(path);
    const ledger = named && (named.kind === 'canvas' || named.kind === 'access' || (named.kind === 'proposal' && PROPOSAL_ID.test(named.proposal!))) ? named.ledger : undefined;
    const revision = ledger ? await reader.revision(ledger) : null;
    const rc = revision ? await reader.commit(revision) : null;
    const previous = rc?.trailers['Canvas-Previous'];
    const before = previous ? await reader.file(previous, path) : null;
    if (want && (have === null || (before && have.equals(before)))) {
      const what = `${path} was ${have === null ? 'missing' : 'one revision behind'} (a write was cut short)`;
      if (await repair(`rewrite ${path} from main (it ${have === null ? 'is missing' : 'is one revision behind'})`, () => writeWorkingFile(ws.repo, path, want))) {
        repaired.push(`${what}; rewritten from main`);
      }
      continue;
    }
    violations.push({
      rule: 'working-tree',
      path,
      ...(ledger ? { ledger } : {}),
      message: `${path} differs from main: it was edited outside the tool`,
    });
  }
  for (const path of present) {
    if (!tracked.has(path)) {
      violations.push({ rule: 'working-tree', path, message: `${path} is not in main: it was added outside the tool` });
    }
  }
}
