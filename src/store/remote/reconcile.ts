import { CanvasError } from '../../model/canvas-error.js';
import type { Workspace } from '../repo/workspace.js';
import { clearStaleRefLocks, finishFollow, followRemote } from './follow-remote.js';
import { type PushedRef, pushRefs } from './push-refs.js';
import { fetchRemote, isAncestor, type RefState, refStates } from './remote-state.js';

/** How many pushes a write or a sync tries before `REMOTE_BUSY`, unless `CANVAS_PUSH_ROUNDS` says (docs/remote.md, "Writes"). */
const PUSH_ROUNDS = 8;

/**
 * The rounds a write or sync tries: `CANVAS_PUSH_ROUNDS` (a whole number from 1 to 100), else 8.
 *
 * @throws CanvasError `USAGE` when the variable is not such a number
 */
export function pushRounds(): number {
  const raw = process.env.CANVAS_PUSH_ROUNDS;
  if (raw === undefined || raw === '') return PUSH_ROUNDS;
  const n = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= 100)) {
    throw new CanvasError('USAGE', `CANVAS_PUSH_ROUNDS must be a whole number from 1 to 100, not ${JSON.stringify(raw)}`, `unset CANVAS_PUSH_ROUNDS, or set it to a number such as ${PUSH_ROUNDS}`, {
      variable: 'CANVAS_PUSH_ROUNDS',
      value: raw,
    });
  }
  return n;
}

/** The longest wait between two rounds, in milliseconds. */
const BACKOFF_CAP_MS = 5000;

/**
 * How long to wait before the next round after round `round` (1-based) was beaten, in
 * milliseconds (docs/remote.md, "Writes"): a random share of the window the round itself took,
 * doubling with each beaten round, at most {@link BACKOFF_CAP_MS}. Writers beaten by the same push
 * would otherwise fetch again at the same instant and race again in lockstep, one winning each
 * time; spread over a window as long as a round, most of them find the remote quiet.
 *
 * @param roundMs - how long the beaten round took, fetch to rejected push
 * @param random - a number in [0, 1): `Math.random` unless a test pins it
 */
export function backoffMs(round: number, roundMs: number, random: () => number = Math.random): number {
  return Math.min(BACKOFF_CAP_MS, random() * Math.max(roundMs, 1) * 2 ** (round - 1));
}

/** Wait before the next round after round `round`, which started at `started` (`process.uptime() * 1000`), was beaten. */
export function backOff(round: number, started: number): Promise<void> {
  const ms = backoffMs(round, process.uptime() * 1000 - started);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What {@link reconcile} did to bring this repository and the remote to one state. */
export interface Reconciled {
  /** The remote's refs, which this repository's now equal. */
  remote: RefState;
  /** Whether this repository moved forward to the remote's main. */
  followed: boolean;
  /** Whether this repository's commits the remote did not have were pushed. */
  pushed: boolean;
}

/**
 * Bring this repository and the remote to one state (docs/remote.md, "Sync"), under the
 * repository lock: clear the ref locks a killed process left, finish a fast-forward a crash cut
 * short, fetch, then move forward to the remote's main when it is ahead, or push this repository's main and canvas refs when they are
 * ahead (the remote still empty, or commits made before the remote was set). A push someone else
 * beat is fetched again, up to {@link pushRounds} times.
 *
 * @throws CanvasError `REMOTE_UNREACHABLE`, `REMOTE_REFUSED`; `REMOTE_DIVERGED` when the two
 *   mains share no line (neither holds the other); `REMOTE_BUSY` when every round was beaten
 */
export async function reconcile(ws: Workspace, url: string): Promise<Reconciled> {
  clearStaleRefLocks(ws);
  await finishFollow(ws);
  let followed = false;
  const rounds = pushRounds();
  for (let round = 1; round <= rounds; round++) {
    const started = process.uptime() * 1000;
    const remote = await fetchRemote(ws.repo, url);
    let { local } = await refStates(ws.repo);
    if (local.main !== remote.main && remote.main !== null && (local.main === null || (await isAncestor(ws.repo, local.main, remote.main)))) {
      await followRemote(ws, local.main, remote.main);
      followed = true;
      ({ local } = await refStates(ws.repo));
    }
    const moves = refsAhead(local, remote);
    if (moves.length === 0) return { remote, followed, pushed: false };
    if (remote.main !== null && local.main !== null && !(await isAncestor(ws.repo, remote.main, local.main))) {
      throw new CanvasError(
        'REMOTE_DIVERGED',
        `this repository's main ${local.main.slice(0, 12)} and the remote ${url}'s main ${remote.main.slice(0, 12)} hold different histories: neither contains the other`,
        'nothing was written; keep one of the two: point this workspace at another remote, or start the workspace afresh from this remote',
        { url, local: local.main, remote: remote.main },
      );
    }
    if ((await pushRefs(ws.repo, url, moves)) === 'pushed') return { remote: local, followed, pushed: true };
    if (round < rounds) await backOff(round, started);
  }
  throw busy(url);
}

/** Main and every canvas ref where this repository is ahead of (or other than) the remote. */
function refsAhead(local: RefState, remote: RefState): PushedRef[] {
  const moves: PushedRef[] = [];
  if (local.main !== null && local.main !== remote.main) moves.push({ ref: 'refs/heads/main', next: local.main, old: remote.main });
  for (const [ledger, sha] of local.canvases) {
    const old = remote.canvases.get(ledger) ?? null;
    if (old !== sha) moves.push({ ref: `refs/canvas/${ledger}`, next: sha, old });
  }
  return moves;
}

/** The error for a write or sync beaten to the remote in every round. */
export function busy(url: string): CanvasError {
  return new CanvasError(
    'REMOTE_BUSY',
    `the remote ${url} moved before each of ${pushRounds()} pushes: other writers keep pushing first`,
    'nothing was written; write again (with the same --idempotency-key, a retry is safe)',
    { url, rounds: pushRounds() },
  );
}
