import { join } from 'node:path';
import { withRepoLock } from '../repo/repo-lock.js';
import type { Workspace } from '../repo/workspace.js';
import { type Reconciled, reconcile } from './reconcile.js';
import { noRemote } from './set-remote.js';
import { remoteUrl } from './shared-remote.js';
import { repoExists } from '../files/permission-denied.js';

/** What `canvas sync` did. */
export interface SyncReport {
  url: string;
  /** Main as both now hold it (null: both still empty). */
  main: string | null;
  /** Whether this repository moved forward to the remote's main. */
  followed: boolean;
  /** Whether commits the remote did not have were pushed. */
  pushed: boolean;
}

/**
 * `canvas sync` (docs/remote.md, "Sync"): under the repository lock, finish what a crash cut
 * short, fetch, and bring this repository and the remote to one state.
 *
 * @throws CanvasError `NO_REMOTE`, `REMOTE_UNREACHABLE`, `REMOTE_REFUSED`, `REMOTE_DIVERGED`, `REMOTE_BUSY`
 */
export async function syncWorkspace(ws: Workspace): Promise<SyncReport> {
  const url = repoExists(ws.repo) ? await remoteUrl(ws.repo) : null;
  if (url === null) throw noRemote(ws);
  const done: Reconciled = await withRepoLock(join(ws.repo, '.git'), () => reconcile(ws, url));
  return { url, main: done.remote.main, followed: done.followed, pushed: done.pushed };
}
