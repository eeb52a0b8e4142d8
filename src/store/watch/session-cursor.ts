import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPrivateFolders } from '../files/check-private-folders.js';
import { privateName } from '../files/private-name.js';
import { removeQuietly } from '../files/remove-quietly.js';
import { writePrivateFile } from '../files/write-private-file.js';
import type { Workspace } from '../repo/workspace.js';

/**
 * The sessions' cursors (docs/store.md, "Sessions"): for each agent session a harness hook serves
 * (docs/agents.md), the revision of each canvas it last put into that session's context. Like a
 * watch's cursor it is the reader's state, not the canvas's: it lives beside the watches under
 * `.git/`, outside the canvas history, no commit records it and nothing the store decides reads
 * it. One file per session and canvas, so two sessions never write the same file:
 *
 * `.git/canvas-session/<session>/<ledger>.json`  `{"format":1,"session","ledger","cursor","seen"}`
 */

const FORMAT = 1;

/** A session id used as a folder's name as it is; any other is named by its hash, after `_`. */
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** `.git/canvas-session/<session>/`: the session's folder, its name the id or `_` and its SHA-256. */
function sessionDir(ws: Workspace, session: string): string {
  const name = PLAIN.test(session) ? session : `_${createHash('sha256').update(session).digest('hex')}`;
  return join(ws.repo, '.git', 'canvas-session', name);
}

/**
 * The revision of a canvas the session last saw, or null when it saw none (no file, or one that
 * cannot be read: then the session is given the whole canvas again, never less).
 *
 * @param ws - the workspace
 * @param session - the harness's session id (any non-empty string)
 * @param ledger - the canvas
 * @returns a full sha, or null
 */
export function readSessionCursor(ws: Workspace, session: string, ledger: string): string | null {
  try {
    const c = JSON.parse(readFileSync(join(sessionDir(ws, session), `${ledger}.json`), 'utf8')) as { format?: unknown; session?: unknown; ledger?: unknown; cursor?: unknown };
    if (c.format !== FORMAT || c.session !== session || c.ledger !== ledger) return null;
    return typeof c.cursor === 'string' && /^[0-9a-f]{40}$/.test(c.cursor) ? c.cursor : null;
  } catch {
    return null;
  }
}

/**
 * Record that the session has seen the canvas at `revision`: written whole as a private file of
 * `.git/canvas-tmp/` and renamed over the old one (docs/store.md, "Temporary files"), never
 * through a link (docs/store.md, "Where the store writes").
 *
 * @param ws - the workspace
 * @param session - the harness's session id
 * @param ledger - the canvas
 * @param revision - the full sha the session was given
 * @param now - the time it was given (default now)
 * @throws CanvasError `UNSAFE_PATH` for a link at `.git/canvas-session` or the session's folder;
 *   the file system's errors (a full disk, a repository this user may not write)
 */
export function saveSessionCursor(ws: Workspace, session: string, ledger: string, revision: string, now: Date = new Date()): void {
  const gitDir = join(ws.repo, '.git');
  const dir = sessionDir(ws, session);
  checkPrivateFolders(gitDir, ['canvas-tmp', 'canvas-session', relative(gitDir, dir)]);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${ledger}.json`);
  const text = `${JSON.stringify({ format: FORMAT, session, ledger, cursor: revision, seen: now.toISOString() })}\n`;
  const tmp = writePrivateFile(gitDir, privateName(relative(gitDir, path)), text);
  try {
    renameSync(tmp, path);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}
