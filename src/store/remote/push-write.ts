import { pushRefs } from './push-refs.js';
import type { RefState } from './remote-state.js';

/** The shared remote as a write under the lock sees it: its URL and its refs as just fetched. */
export interface RemoteSession {
  url: string;
  refs: RefState;
}

/** A write's push that someone else beat: the write is checked again on the remote's new state. */
export class StalePush extends Error {
  constructor() {
    super('the remote moved since it was fetched');
    this.name = 'StalePush';
  }
}

/**
 * Push a write's commit as the remote's `main` and `refs/canvas/<ledger>` (docs/remote.md,
 * "Writes"), atomically, each ref leased at its value as fetched.
 *
 * @throws StalePush when someone pushed first; CanvasError `REMOTE_REFUSED`, `REMOTE_UNREACHABLE`
 */
export async function pushWrite(repo: string, session: RemoteSession, ledger: string, sha: string): Promise<void> {
  const result = await pushRefs(repo, session.url, [
    { ref: 'refs/heads/main', next: sha, old: session.refs.main },
    { ref: `refs/canvas/${ledger}`, next: sha, old: session.refs.canvases.get(ledger) ?? null },
  ]);
  if (result === 'stale') throw new StalePush();
}
