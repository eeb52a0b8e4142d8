import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import type { Workspace } from '../store/index.js';
import type { CommentRef, RecordingRef } from './basecamp-client.js';
import type { PublishState } from './publish-state.js';

/** Ids read from one source; any may be missing. */
export interface TargetParts {
  account?: string | undefined;
  bucket?: string | undefined;
  comment?: string | undefined;
  recording?: string | undefined;
}

/**
 * The target flags of `canvas publish`: a comment URL, or account, bucket and comment; a recording
 * to create on (`recording`, at the first publish: an id or a Basecamp URL).
 */
export interface TargetFlags extends TargetParts {
  commentUrl?: string | undefined;
}

/** Where the publish goes: the comment to update, else the recording to create it on. */
export interface Target {
  comment: CommentRef | null;
  /** Where the comment id came from. */
  source: 'flags' | 'row' | 'state' | null;
  recording: RecordingRef | null;
  /** Set when the row names a comment that `--recreate` replaced: the recorded one is used. */
  note?: string;
}

const ID = /^[1-9][0-9]{0,18}$/;
const PATH = /^\/([0-9]+)(?:\/buckets\/([0-9]+))?\/([a-z_]+)\/([0-9]+)(?:\.json)?(\/comments(?:\.json)?)?\/?$/;
const HASH = /^#__recording_([0-9]+)$/;

function refuse(message: string, data: Record<string, unknown> = {}): CanvasError {
  return new CanvasError('PUBLISH_TARGET', message, 'name the comment with --comment-url URL, or --account A [--bucket B] --comment C; or give --recording R for the first publish (docs/basecamp.md)', data);
}

/**
 * Check a Basecamp id from a flag or a file.
 *
 * @throws CanvasError `PUBLISH_TARGET` when it is not a positive integer
 */
function checkBasecampId(value: unknown, what: string): string {
  const s = typeof value === 'number' ? String(value) : value;
  if (typeof s !== 'string' || !ID.test(s)) throw refuse(`${what} must be a Basecamp id (digits), not ${JSON.stringify(value)}`, { [what]: value });
  return s;
}

/**
 * Read the ids out of a Basecamp URL: an API URL (`https://3.basecampapi.com/A[/buckets/B]/comments/C.json`,
 * `.../recordings/R/comments.json`, `.../todos/R.json`) or a web URL (`https://3.basecamp.com/A/buckets/B/todos/R`,
 * with `#__recording_C` for a comment on it). The host is not used: requests go to the API root.
 *
 * @param url - the URL
 * @param what - the flag or field it came from, for the message
 * @returns the ids it holds
 * @throws CanvasError `PUBLISH_TARGET` when it is not such a URL
 */
function parseBasecampUrl(url: string, what: string): TargetParts {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw refuse(`${what} ${JSON.stringify(url)} is not a URL`, { [what]: url });
  }
  const m = PATH.exec(u.pathname);
  if (!m) throw refuse(`${what} ${url} is not a Basecamp comment or to-do URL`, { [what]: url });
  const [, account, bucket, kind, id, comments] = m;
  const parts: TargetParts = { account, bucket };
  if (kind === 'comments' && !comments) parts.comment = id;
  else parts.recording = id;
  const h = HASH.exec(u.hash);
  if (h) parts.comment = h[1];
  return parts;
}

function merge(a: TargetParts, b: TargetParts, what: string): TargetParts {
  const out: TargetParts = { ...a };
  for (const k of ['account', 'bucket', 'comment', 'recording'] as const) {
    const v = b[k];
    if (v === undefined) continue;
    if (out[k] !== undefined && out[k] !== v) throw refuse(`${what} disagree about the ${k}: ${out[k]} and ${v}`);
    out[k] = v;
  }
  return out;
}

/**
 * Read the target flags into ids.
 *
 * @throws CanvasError `PUBLISH_TARGET` for a bad id or URL, or flags that disagree
 */
export function partsFromFlags(flags: TargetFlags): TargetParts {
  let parts: TargetParts = {};
  if (flags.commentUrl !== undefined) {
    parts = parseBasecampUrl(flags.commentUrl, '--comment-url');
    if (parts.comment === undefined) throw refuse(`--comment-url ${flags.commentUrl} names no comment; for a to-do use --recording`);
  }
  const plain: TargetParts = {};
  if (flags.account !== undefined) plain.account = checkBasecampId(flags.account, '--account');
  if (flags.bucket !== undefined) plain.bucket = checkBasecampId(flags.bucket, '--bucket');
  if (flags.comment !== undefined) plain.comment = checkBasecampId(flags.comment, '--comment');
  parts = merge(parts, plain, 'the flags');
  if (flags.recording !== undefined) {
    const r = ID.test(flags.recording) ? { recording: flags.recording } : parseBasecampUrl(flags.recording, '--recording');
    if (r.recording === undefined) throw refuse(`--recording ${flags.recording} names no to-do`);
    parts = merge(parts, { ...r, comment: undefined }, 'the flags');
  }
  return parts;
}

/**
 * Read the `basecamp` object of the ledger row `state/ledger/<ledger>.json` (read only, never
 * written). Fields: `comment_url`, `todo_url`, `account_id`, `bucket_id` (or `project_id`),
 * `comment_id`, `todo_id` (or `recording_id`); ids as numbers or strings.
 *
 * @param ws - the workspace
 * @param ledger - the ledger id (checked)
 * @returns the ids it holds, or `null` when there is no row file or no `basecamp` object
 * @throws CanvasError `PUBLISH_TARGET` when the row file is not JSON or its ids are malformed
 */
export function partsFromRow(ws: Workspace, ledger: string): TargetParts | null {
  const path = join(ws.ledgerDir, `${ledger}.json`);
  if (!existsSync(path)) return null;
  let row: unknown;
  try {
    row = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw refuse(`the ledger row ${path} is not readable JSON: ${(e as Error).message}`, { path });
  }
  const bc = (row as { basecamp?: unknown } | null)?.basecamp;
  if (bc === undefined || bc === null) return null;
  if (typeof bc !== 'object') throw refuse(`the basecamp field of ${path} is not an object`, { path });
  const o = bc as Record<string, unknown>;
  let parts: TargetParts = {};
  if (o.comment_url !== undefined) parts = merge(parts, parseBasecampUrl(String(o.comment_url), 'basecamp.comment_url'), path);
  if (o.todo_url !== undefined) parts = merge(parts, parseBasecampUrl(String(o.todo_url), 'basecamp.todo_url'), path);
  const id = (keys: string[], what: string): string | undefined => {
    const k = keys.find((key) => o[key] !== undefined && o[key] !== null);
    return k === undefined ? undefined : checkBasecampId(o[k], `basecamp.${k}${what}`);
  };
  return merge(
    parts,
    {
      account: id(['account_id'], ''),
      bucket: id(['bucket_id', 'project_id'], ''),
      comment: id(['comment_id'], ''),
      recording: id(['todo_id', 'recording_id'], ''),
    },
    path,
  );
}

/**
 * Decide where a publish goes (`docs/basecamp.md`, "Where the comment is"). The comment: from the
 * flags, else from the ledger row's `basecamp` object (unless `--recreate` replaced that comment),
 * else the one recorded by an earlier publish. The recording, to create on when no comment is
 * known: from the flags, else the row, else the record.
 *
 * @param flags - ids from the flags
 * @param row - ids from the ledger row, or `null`
 * @param state - the publish record, or `null`
 * @returns the comment and the recording (either may be `null`)
 * @throws CanvasError `PUBLISH_TARGET` when an account is missing, or `--recording` names another
 *   to-do than the recorded comment's
 */
export function resolveTarget(flags: TargetParts, row: TargetParts | null, state: PublishState | null): Target {
  const account = (first: string | undefined): string => {
    const a = first ?? flags.account ?? row?.account ?? state?.comment.account;
    if (a === undefined) throw refuse('the Basecamp account is not known: pass --account or --comment-url, or set basecamp.account_id in the ledger row');
    return a;
  };
  let comment: CommentRef | null = null;
  let source: Target['source'] = null;
  let note: string | undefined;
  if (flags.comment !== undefined) {
    const sameAsState = state?.comment.id === flags.comment;
    comment = { account: account(flags.account), bucket: flags.bucket ?? (sameAsState ? state.comment.bucket : null), id: flags.comment };
    source = 'flags';
  } else if (row?.comment !== undefined && !state?.replaced.includes(row.comment)) {
    comment = { account: account(row.account), bucket: row.bucket ?? null, id: row.comment };
    source = 'row';
  } else if (state) {
    comment = { account: state.comment.account, bucket: state.comment.bucket, id: state.comment.id };
    source = 'state';
    if (row?.comment !== undefined) {
      note = `the ledger row still names comment ${row.comment}, which was re-created as ${state.comment.id}; update the row's basecamp.comment_id`;
    }
  }
  if (source === 'state' && flags.recording !== undefined && state?.comment.recording && state.comment.recording !== flags.recording) {
    throw refuse(
      `--recording ${flags.recording} is not the to-do of the comment already published for this ledger (comment ${state.comment.id} on to-do ${state.comment.recording}); there is one comment per row`,
      { recording: flags.recording, comment: state.comment.id },
    );
  }
  const recordingId = flags.recording ?? row?.recording ?? state?.comment.recording ?? undefined;
  let recording: RecordingRef | null = null;
  if (recordingId !== undefined) {
    const fromState = state?.comment.recording === recordingId;
    recording = {
      account: account(flags.recording !== undefined ? flags.account : (row?.account ?? (fromState ? state?.comment.account : undefined))),
      bucket: (flags.recording !== undefined ? flags.bucket : undefined) ?? row?.bucket ?? (fromState ? (state?.comment.bucket ?? null) : null),
      id: recordingId,
    };
  }
  return { comment, source, recording, ...(note ? { note } : {}) };
}
