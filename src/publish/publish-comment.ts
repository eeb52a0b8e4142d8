import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { checkLedgerId } from '../model/check-ledger-id.js';
import { readSnapshot, sweepPrivateFiles, withRepoLock, type Workspace } from '../store/index.js';
import { type BasecampClientOptions, BasecampClient, type BasecampComment, type CommentRef } from './basecamp-client.js';
import { basecampConfig } from './basecamp-config.js';
import { partsFromFlags, partsFromRow, resolveTarget, type Target, type TargetFlags } from './basecamp-target.js';
import { composeCommentHtml } from './compose-comment-html.js';
import { type CommentRenderer, loadRenderComment } from './load-render-comment.js';
import { type PublishState, readPublishState, writePublishState } from './publish-state.js';

/** The HTTP tuning a caller (or a test) may pass; see {@link BasecampClientOptions}. */
type PublishHttpOptions = Pick<BasecampClientOptions, 'fetch' | 'clock' | 'timeoutMs' | 'budgetMs' | 'maxRetryAfterMs' | 'backoffMs'>;

/** What {@link publishComment} needs. */
export interface PublishOptions {
  ledger: string;
  /** The ledger row's own Markdown (its status blocks): required, it comes first. */
  rowBody: string | undefined;
  /** Where the comment is, from the command line (see `docs/basecamp.md` for the other sources). */
  target?: TargetFlags;
  /** Build the HTML and say what would be sent; send and write nothing. */
  dryRun?: boolean;
  /** Send even when the record says Basecamp already shows this content. */
  force?: boolean;
  /** The recorded comment is gone on Basecamp: check that, then create a fresh one on the recording. */
  recreate?: boolean;
  /** A User-Agent from the command line (else `BASECAMP_USER_AGENT`, else `BASECAMP_CONTACT`). */
  userAgent?: string;
  /** The environment to read `BASECAMP_*` from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  http?: PublishHttpOptions;
  /** The comment renderer (default: `renderComment`, loaded lazily). */
  renderComment?: CommentRenderer;
}

/** A comment as the publisher reports it. */
export interface PublishedComment {
  id: string;
  account: string;
  bucket: string | null;
  /** The to-do it is on, when known. */
  recording: string | null;
  /** The URL a person opens. */
  appUrl: string;
  /** The API URL. */
  url: string;
}

/** What a publish did (the `--json` output). */
export interface PublishResult {
  /** `created` (first publish), `updated` (rewritten in place), `unchanged` (nothing sent), `dry-run` (nothing sent). */
  outcome: 'created' | 'updated' | 'unchanged' | 'dry-run';
  ledger: string;
  /** The canvas revision in the comment, or `null` when the task has no canvas. */
  revision: string | null;
  /** The comment written, or known; `null` only for a dry run that will create it. */
  comment: PublishedComment | null;
  /** `sha256:<hex>` of the HTML. */
  contentHash: string;
  /** Dry run only: the HTML that would be sent, and what would happen (`create`, `update`, `nothing`, or `null` when no target is known). */
  html?: string;
  wouldSend?: 'create' | 'update' | 'nothing' | null;
  /** Something the caller should know (the row names a replaced comment). */
  note?: string;
}

function hashOf(html: string): string {
  return `sha256:${createHash('sha256').update(html, 'utf8').digest('hex')}`;
}

function published(c: BasecampComment, ref: CommentRef, recording: string | null): PublishedComment {
  return { id: c.id, account: ref.account, bucket: ref.bucket, recording, appUrl: c.appUrl, url: c.url };
}

function fromState(s: PublishState): PublishedComment {
  return { ...s.comment };
}

async function commentMarkdown(ws: Workspace, ledger: string, render: CommentRenderer | undefined): Promise<{ markdown: string | null; revision: string | null }> {
  let snapshot: Awaited<ReturnType<typeof readSnapshot>>;
  try {
    snapshot = await readSnapshot(ws, { ledger });
  } catch (e) {
    if (e instanceof CanvasError && e.code === 'CANVAS_NOT_FOUND') return { markdown: null, revision: null };
    throw e;
  }
  const renderComment = render ?? (await loadRenderComment());
  return { markdown: renderComment(snapshot), revision: snapshot.revision };
}

function gone(ledger: string, ref: CommentRef, cause: CanvasError): CanvasError {
  if (cause.data.reason !== undefined) return cause;
  return new CanvasError(
    'PUBLISH_NOT_FOUND',
    `comment ${ref.id} is gone on Basecamp (deleted, trashed, or not visible to this token's person); nothing was created in its place`,
    `to put a fresh comment on the to-do, run \`canvas publish ${ledger} --row-body FILE --recreate --recording <to-do id>\` (it checks that ${ref.id} is really gone first), or name the row's current comment with --comment`,
    { ...cause.data, comment: ref.id },
  );
}

/**
 * Publish the ledger row's one Basecamp comment (docs/basecamp.md, docs/projections.md "The comment"): the
 * row's own Markdown first, then the canvas comment render at its current revision, converted to
 * Basecamp rich text; created on the to-do at the first publish, then always updated in place.
 * Idempotent: the revision and a hash of the HTML are recorded in `state/publish/<ledger>.json`
 * (atomically), and the same content again sends nothing. Never a second comment: a comment gone
 * on Basecamp is an error that says how to re-create it. A task without a canvas publishes the
 * row's body alone. The ledger row file is only read.
 *
 * @param ws - the workspace
 * @param options - ledger, row body, target flags, dry run, force, recreate, User-Agent,
 *   environment (`BASECAMP_ACCESS_TOKEN`, `BASECAMP_API_URL`, `BASECAMP_USER_AGENT`,
 *   `BASECAMP_CONTACT`), HTTP tuning (fetch, clock, timeouts and budgets in ms), renderer
 * @returns what was done: created, updated, unchanged or dry-run, with the comment and revision
 * @throws CanvasError `BAD_LEDGER_ID`, `ROW_BODY_REQUIRED`, `PUBLISH_TARGET`, `PUBLISH_CONFIG`,
 *   `PUBLISH_AUTH`, `PUBLISH_NOT_FOUND`, `PUBLISH_FAILED`, `LOCK_TIMEOUT`, and the snapshot read's codes
 */
export async function publishComment(ws: Workspace, options: PublishOptions): Promise<PublishResult> {
  const ledger = checkLedgerId(options.ledger);
  if (options.rowBody === undefined || options.rowBody.trim() === '') {
    throw new CanvasError(
      'ROW_BODY_REQUIRED',
      options.rowBody === undefined
        ? "the ledger row's own body is required: the comment is the row's, and publishing the canvas alone would overwrite the row's status blocks"
        : "the ledger row's body is empty: publishing it would wipe the row's status blocks from the comment",
      'pass --row-body FILE with the Markdown the row writes to its comment today; the canvas follows it',
      { ledger },
    );
  }
  const flags = partsFromFlags(options.target ?? {});
  const { markdown, revision } = await commentMarkdown(ws, ledger, options.renderComment);
  const html = composeCommentHtml(options.rowBody, markdown);
  const contentHash = hashOf(html);
  const row = partsFromRow(ws, ledger);

  if (options.dryRun) {
    const state = readPublishState(ws, ledger);
    const target = resolveTarget(flags, row, state);
    const same = state !== null && target.comment?.id === state.comment.id && state.contentHash === contentHash && !options.force;
    const wouldSend = options.recreate ? (target.recording ? 'create' : null) : target.comment ? (same ? 'nothing' : 'update') : target.recording ? 'create' : null;
    const comment: PublishedComment | null = target.comment
      ? state?.comment.id === target.comment.id
        ? fromState(state)
        : { ...target.comment, recording: target.recording?.id ?? null, appUrl: '', url: '' }
      : null;
    return { outcome: 'dry-run', ledger, revision, comment, contentHash, html, wouldSend, ...(target.note ? { note: target.note } : {}) };
  }

  const config = basecampConfig(options.env ?? process.env, options.userAgent);
  const client = new BasecampClient({ ...config, ...options.http });
  const dir = join(ws.root, 'state', 'publish');
  mkdirSync(dir, { recursive: true });
  const budget = options.http?.budgetMs ?? 120_000;
  return withRepoLock(
    dir,
    async () => {
      // What killed publishes left in `state/publish/canvas-tmp/` (docs/store.md, "Temporary files").
      sweepPrivateFiles(dir);
      const state = readPublishState(ws, ledger);
      const target = resolveTarget(flags, row, state);
      const note = target.note ? { note: target.note } : {};
      const record = (c: PublishedComment, replaced: string[]): void => writePublishState(ws, { version: 1, ledger, comment: c, revision, contentHash, replaced });

      if (options.recreate) return recreate(client, ledger, target, state, html, revision, contentHash, record);
      if (target.comment) {
        const ref = target.comment;
        if (!options.force && state && state.comment.id === ref.id && state.contentHash === contentHash) {
          return { outcome: 'unchanged', ledger, revision, comment: fromState(state), contentHash, ...note };
        }
        let updated: BasecampComment;
        try {
          updated = await client.updateComment(ref, html);
        } catch (e) {
          throw e instanceof CanvasError && e.code === 'PUBLISH_NOT_FOUND' ? gone(ledger, ref, e) : e;
        }
        const recording = state?.comment.id === ref.id ? state.comment.recording : (target.recording?.id ?? null);
        const c = published(updated, ref, recording);
        record(c, state?.replaced ?? []);
        return { outcome: 'updated', ledger, revision, comment: c, contentHash, ...note };
      }
      if (target.recording) {
        const created = await client.createComment(target.recording, html);
        const c = published(created, { ...target.recording, id: created.id }, target.recording.id);
        record(c, state?.replaced ?? []);
        return { outcome: 'created', ledger, revision, comment: c, contentHash, ...note };
      }
      throw new CanvasError(
        'PUBLISH_TARGET',
        `no Basecamp comment is known for ${ledger}: no flags name one, state/ledger/${ledger}.json has no basecamp object naming one, and it was never published`,
        'name the comment with --comment-url URL (or --account A [--bucket B] --comment C), or give --recording R to create it on the to-do at the first publish',
        { ledger },
      );
    },
    budget + 30_000,
  );
}

async function recreate(
  client: BasecampClient,
  ledger: string,
  target: Target,
  state: PublishState | null,
  html: string,
  revision: string | null,
  contentHash: string,
  record: (c: PublishedComment, replaced: string[]) => void,
): Promise<PublishResult> {
  if (!target.recording) {
    throw new CanvasError('PUBLISH_TARGET', `--recreate needs the to-do to create the comment on, and none is known for ${ledger}`, 'pass --recording <to-do id or URL>', { ledger });
  }
  const replaced = [...(state?.replaced ?? [])];
  if (target.comment) {
    const existing = await client.getComment(target.comment);
    if (existing && existing.status === 'active') {
      throw new CanvasError(
        'PUBLISH_TARGET',
        `comment ${target.comment.id} still exists on Basecamp; --recreate only replaces a comment that is gone (there is one comment per row)`,
        `publish without --recreate to update comment ${target.comment.id} in place`,
        { comment: target.comment.id, appUrl: existing.appUrl },
      );
    }
    if (!replaced.includes(target.comment.id)) replaced.push(target.comment.id);
  }
  const created = await client.createComment(target.recording, html);
  const c = published(created, { ...target.recording, id: created.id }, target.recording.id);
  record(c, replaced);
  const note = target.comment ? { note: `comment ${target.comment.id} was gone; created ${created.id} in its place. If the ledger row names the old comment, point it at ${created.id}` } : {};
  return { outcome: 'created', ledger, revision, comment: c, contentHash, ...note };
}
