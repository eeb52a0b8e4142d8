import { join } from 'node:path';
import { runGit } from './git.js';
import { gitIdent } from './git-ident.js';
import { writeObject } from './write-object.js';

/**
 * Write a commit object: in process when the dates are ones the store can format exactly as git
 * does (no date variables, or the ISO and raw forms tests use), else with `git commit-tree`.
 * The git author is the Canvas-Author text; the committer is `canvas`.
 *
 * @returns the commit's sha
 */
export async function writeCommit(repo: string, tree: string, parent: string | null, name: string, email: string, message: string): Promise<string> {
  const now = new Date();
  const author = gitIdent(name, email, process.env.GIT_AUTHOR_DATE, now);
  const committer = gitIdent('canvas', '', process.env.GIT_COMMITTER_DATE, now);
  if (author && committer) {
    const body = `tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author ${author}\ncommitter ${committer}\n\n${message}`;
    return writeObject(join(repo, '.git'), 'commit', Buffer.from(body, 'utf8'));
  }
  const { stdout } = await runGit(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], {
    input: message,
    env: { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' },
  });
  return stdout.trim();
}
