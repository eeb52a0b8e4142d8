import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { privateName, removeQuietly, type Workspace, writePrivateFile } from '../store/index.js';

/** What the last publish of a ledger's comment sent and where (`state/publish/<ledger>.json`). */
export interface PublishState {
  version: 1;
  ledger: string;
  comment: {
    account: string;
    bucket: string | null;
    id: string;
    /** The to-do it is on, when known (it was created here, or named by the flags or the row). */
    recording: string | null;
    url: string;
    appUrl: string;
  };
  /** The canvas revision published, or `null` when the task has no canvas. */
  revision: string | null;
  /** `sha256:<hex>` of the HTML sent. */
  contentHash: string;
  /** Comment ids that were gone on Basecamp and re-created with `--recreate`. */
  replaced: string[];
}

/** The publish record's path: `<workspace>/state/publish/<ledger>.json`. */
function publishStatePath(ws: Workspace, ledger: string): string {
  return join(ws.root, 'state', 'publish', `${ledger}.json`);
}

/**
 * Read the publish record of a ledger.
 *
 * @returns the record, or `null` when the ledger was never published
 * @throws CanvasError `PUBLISH_TARGET` when the file exists but is not a record
 */
export function readPublishState(ws: Workspace, ledger: string): PublishState | null {
  const path = publishStatePath(ws, ledger);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const s = JSON.parse(text) as PublishState;
    if (s.version !== 1 || typeof s.comment?.id !== 'string' || typeof s.comment.account !== 'string') throw new Error('not a version 1 record');
    return { ...s, replaced: Array.isArray(s.replaced) ? s.replaced : [] };
  } catch (e) {
    throw new CanvasError(
      'PUBLISH_TARGET',
      `the publish record ${path} is not readable: ${(e as Error).message}`,
      'restore it, or remove it and name the comment with --comment-url (a removed record never leads to a second comment unless --recording is given)',
      { path },
    );
  }
}

/**
 * Write the publish record atomically: a private file of `state/publish/canvas-tmp/`, renamed into
 * place, so a reader sees the old record or the new one, never half of one. One a killed publish
 * left is removed by a later publish (docs/basecamp.md, "Idempotent"; the rule of docs/store.md,
 * "Temporary files").
 */
export function writePublishState(ws: Workspace, state: PublishState): void {
  const dir = join(ws.root, 'state', 'publish');
  const path = publishStatePath(ws, state.ledger);
  mkdirSync(dir, { recursive: true });
  const tmp = writePrivateFile(dir, privateName(`${state.ledger}.json`), `${JSON.stringify(state, null, 2)}\n`);
  try {
    renameSync(tmp, path);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}
