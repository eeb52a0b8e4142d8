import { createHash } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { CanvasError } from '../model/canvas-error.js';
import { checkLedgerId } from '../model/check-ledger-id.js';
import { decodeUtf8Strict } from '../model/decode-utf8-strict.js';
import { parseAuthor } from '../model/parse-author.js';
import { MAX_REASON } from '../model/check-reason.js';
import { LINE_BAD } from '../model/text-characters.js';
import { INPUT_LIMIT } from '../model/size-limits.js';
import { MERMAID_PIN } from '../render/figures/mermaid-pin.js';
import { TEMPLATES } from '../render/html/templates.js';
import { listProposals, readPackageFile, type RefWatcher, rejectionOf, roleOnCanvas, roleRank, type Workspace } from '../store/index.js';
import { canvasForForms } from './canvas-for-forms.js';
import { changesSince } from './changes-since.js';
import { parseDecideBody, parseEditBody, parsePreviewBody } from './edit-body.js';
import type { LivePages } from './live-pages.js';
import { liveScript } from './live-script.js';
import { previewFigure } from './preview-figure.js';
import type { RemoteSync } from './remote-sync.js';
import { type GuardOptions, refuse, requestGuard } from './request-guard.js';
import { runDecision, runEdit } from './run-edit.js';

/** Everything the routes share. */
export interface ServeContext {
  ws: Workspace;
  /** The author browser edits are made as, or null: the tab then only reads. */
  author: string | null;
  guard: GuardOptions;
  watcher: RefWatcher;
  /** The sync with the shared remote: how it last went, and when that changes. */
  remote: Pick<RemoteSync, 'state' | 'subscribe'>;
  pages: LivePages;
  /** Called with a function that ends an open event stream, so closing the server ends them. */
  track(end: () => void): () => void;
  /** The writes under way, and whether the server is stopping (then new ones are refused). */
  writes: WritesInFlight;
  /** The MCP endpoint served at `/mcp` (docs/mcp.md, "Over HTTP"), when the server has one. */
  mcp?: ((request: Request) => Promise<Response>) | undefined;
}

/** The writes a server has under way (docs/serve.md, "Stopping"). */
export interface WritesInFlight {
  /** Set when the server stops: a write asked for from then on is refused with `SERVER_STOPPING`. */
  stopping: boolean;
  /** Each write under way, settled when its outcome has been answered. */
  running: Set<Promise<unknown>>;
}

/** The largest body a write takes: a payload at the input limit, the reason and the fields. */
const BODY_LIMIT = INPUT_LIMIT + 16 * 1024;

/** How often an idle event stream says it is alive, so a proxy or the page notices a dead one. */
const HEARTBEAT_MS = 20_000;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The policy every response carries as a header (docs/serve.md, "Security"), beside the page's
 * own meta policy (a browser enforces both): scripts from the server, the index's own inline
 * script (`templates/index.js`, by its hash) and the pinned Mermaid module only, no framing,
 * nothing else from anywhere.
 *
 * @param indexScript - the text of the index's inline script
 */
const headerPolicy = (indexScript: string) =>
  [
    "default-src 'none'",
    `script-src 'self' ${sha256(indexScript)} ${sha256(MERMAID_PIN.init)} ${MERMAID_PIN.url} ${MERMAID_PIN.chunks}`,
    "style-src 'self' 'unsafe-inline'",
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

function badRequest(c: Context, status: 400 | 405 | 413 | 415, rule: string, message: string, hint: string): Response {
  return refuse(c, status, new CanvasError('SERVE_BAD_REQUEST', message, hint, { rule }));
}

/** Map an error of a route to its response: a refusal keeps its code; anything else is internal. */
function failure(c: Context, e: unknown): Response {
  const err = e instanceof CanvasError ? e : new CanvasError('INTERNAL', String((e as Error)?.message ?? e), 'see the server’s standard error');
  // One line, as the CLI says an internal error; the stack only when CANVAS_DEBUG=1 asks for it.
  if (!(e instanceof CanvasError)) {
    const shown = process.env.CANVAS_DEBUG === '1' ? String((e as Error)?.stack ?? e) : `INTERNAL: ${err.message.split('\n')[0]} (CANVAS_DEBUG=1 prints the stack trace)`;
    process.stderr.write(`canvas serve: ${shown}\n`);
  }
  const rule = err.code === 'SERVE_BAD_REQUEST' ? err.data.rule : undefined;
  const status =
    rule === 'content-type' ? 415 : rule === 'size' ? 413 : err.code === 'SERVER_STOPPING' ? 503 : err.code === 'CANVAS_NOT_FOUND' ? 404 : err.kind === 'no-role' ? 403 : err.kind === 'internal' ? 500 : 400;
  return refuse(c, status, err);
}

async function jsonBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json(\s*;\s*charset=utf-8)?$/i.test(type.trim())) {
    throw new CanvasError('SERVE_BAD_REQUEST', `a write is JSON, not ${JSON.stringify(type)}`, 'send Content-Type: application/json', { rule: 'content-type' });
  }
  // Strictly: bytes that are not UTF-8 are refused, never read as U+FFFD (docs/schema.md, "Characters").
  const text = decodeUtf8Strict(new Uint8Array(await c.req.arrayBuffer()), 'the body');
  try {
    return JSON.parse(text);
  } catch {
    throw new CanvasError('SERVE_BAD_REQUEST', 'the body is not JSON', 'send one JSON object', { rule: 'json' });
  }
}

/** The refusal of a write asked for while the server stops (docs/serve.md, "Stopping"). */
function stopping(): CanvasError {
  return new CanvasError('SERVER_STOPPING', 'the server is stopping: it finishes the writes under way and takes no new one', 'start canvas serve again, then write again', {});
}

/** The page's view of its canvas: who edits, with what role, and the proposals they may decide. */
async function session(ctx: ServeContext, ledger: string): Promise<Record<string, unknown>> {
  const revision = await ctx.pages.revision(ledger);
  if (revision === null) throw new CanvasError('CANVAS_NOT_FOUND', `there is no canvas ${ledger}`, 'open the index', { ledger });
  const reason = { pattern: LINE_BAD.source, flags: LINE_BAD.flags, max: MAX_REASON };
  if (ctx.author === null) return { ledger, revision, author: null, role: null, proposals: [], reason };
  const who = parseAuthor(ctx.author).who;
  const role = await roleOnCanvas(ctx.ws, { ledger, who });
  const decides = role !== null && roleRank(role) >= roleRank('editor');
  const proposals = decides ? (await listProposals(ctx.ws, { ledger })).filter((p) => p.status === 'open') : [];
  return { ledger, revision, author: ctx.author, role, proposals, reason };
}

/**
 * The routes of `canvas serve` (docs/serve.md): the index and each canvas page, the live script,
 * one event stream of moved refs (and of the shared remote's sync failing or working again), what changed since a revision, and the two write routes, which
 * call the store's verbs and return their outcome as it is.
 *
 * @param ctx - the workspace, author, guard, watcher and pages
 * @returns the Hono app
 */
export function serveApp(ctx: ServeContext): Hono {
  const app = new Hono();
  const policy = headerPolicy(TEMPLATES.indexScript);
  app.use('*', async (c, next) => {
    await next();
    // Set on the answer's own headers, as Hono's secureHeaders does: c.header() on an answer
    // already made copies the whole response at each call (its body turned into a stream).
    const headers = c.res.headers;
    headers.set('Content-Security-Policy', policy);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'no-referrer');
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cache-Control', 'no-store');
  });
  app.use('*', requestGuard(ctx.guard));
  app.onError((e, c) => failure(c, e));
  app.notFound((c) => refuse(c, 404, new CanvasError('CANVAS_NOT_FOUND', `nothing is served at ${c.req.path}`, 'open the index, /', { path: c.req.path })));
  app.on(['OPTIONS', 'PUT', 'PATCH', 'DELETE'], '*', (c) => badRequest(c, 405, 'method', `${c.req.method} is not a method this server takes`, 'read with GET; write with a POST from a page this server served'));

  const mcp = ctx.mcp;
  if (mcp !== undefined) {
    app.on(['GET', 'POST'], '/mcp', async (c) => {
      if (ctx.writes.stopping) throw stopping();
      const answered = mcp(c.req.raw);
      ctx.writes.running.add(answered);
      try {
        return await answered;
      } finally {
        ctx.writes.running.delete(answered);
      }
    });
  }

  const index = async (c: Context) => c.html(await ctx.pages.index([...(await ctx.watcher.current()).keys()]));
  app.get('/', index);
  app.get('/index.html', index);
  app.get('/_canvas/live.js', async (c) => c.body(await liveScript(), 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/_canvas/live.css', async (c) => c.body(await readPackageFile('templates/serve/live.css'), 200, { 'Content-Type': 'text/css; charset=utf-8' }));
  app.get('/_events', (c) =>
    streamSSE(c, async (stream) => {
      let end: () => void = () => {};
      const ended = new Promise<void>((resolve) => {
        end = resolve;
      });
      stream.onAbort(end);
      const untrack = ctx.track(end);
      const unsubscribe = ctx.watcher.subscribe((changes) => void stream.writeSSE({ event: 'change', data: JSON.stringify(changes) }));
      const unhear = ctx.remote.subscribe((state) => void stream.writeSSE({ event: 'remote', data: JSON.stringify(state) }));
      const beat = setInterval(() => void stream.writeSSE({ event: 'ping', data: '' }), HEARTBEAT_MS);
      await stream.writeSSE({ event: 'hello', data: JSON.stringify(Object.fromEntries(await ctx.watcher.current())) });
      const remote = ctx.remote.state();
      if (remote?.error) await stream.writeSSE({ event: 'remote', data: JSON.stringify(remote) });
      await ended;
      clearInterval(beat);
      unhear();
      unsubscribe();
      untrack();
    }),
  );

  app.get('/:ledger', (c) => c.redirect(`/${encodeURIComponent(checkLedgerId(c.req.param('ledger')))}/`, 301));
  const page = async (c: Context) => c.html((await ctx.pages.page(checkLedgerId(c.req.param('ledger')))).html);
  app.get('/:ledger/', page);
  app.get('/:ledger/index.html', page);
  app.get('/:ledger/_session', async (c) => c.json(await session(ctx, checkLedgerId(c.req.param('ledger')))));
  app.get('/:ledger/_canvas', async (c) => c.json(await canvasForForms(ctx.ws, checkLedgerId(c.req.param('ledger')), c.req.query('at'))));
  app.get('/:ledger/_since', async (c) => c.json(await changesSince(ctx.ws, checkLedgerId(c.req.param('ledger')), c.req.query('base') ?? '')));

  const limit = bodyLimit({
    maxSize: BODY_LIMIT,
    onError: (c) => badRequest(c, 413, 'size', `the body is over ${BODY_LIMIT} bytes`, 'a node is at most 1 MiB: split the edit'),
  });
  const write =
    <T>(parse: (body: unknown) => T, run: (ledger: string, body: T) => Promise<unknown>) =>
    async (c: Context) => {
      if (ctx.writes.stopping) throw stopping();
      const ledger = checkLedgerId(c.req.param('ledger'));
      const body = parse(await jsonBody(c));
      if (ctx.author === null) {
        throw new CanvasError('BAD_AUTHOR', 'this server was started without an author, so its pages only read', 'start canvas serve with --author, or set CANVAS_AUTHOR', {
          rule: 'required',
        });
      }
      // Asked again: the body may have taken a while to arrive.
      if (ctx.writes.stopping) throw stopping();
      const answered = (async () => {
        try {
          return c.json(await run(ledger, body));
        } catch (e) {
          // A refusal the store throws is its rejected outcome, as the CLI's --json prints it.
          return c.json(rejectionOf(e));
        }
      })();
      ctx.writes.running.add(answered);
      try {
        return await answered;
      } finally {
        ctx.writes.running.delete(answered);
      }
    };
  app.post(
    '/:ledger/_write',
    limit,
    write(parseEditBody, (ledger, body) => runEdit(ctx.ws, ctx.author!, ledger, body)),
  );
  app.post('/_preview', limit, async (c) => c.json(await previewFigure(parsePreviewBody(await jsonBody(c)).node)));
  app.post(
    '/:ledger/_decide',
    limit,
    write(parseDecideBody, (ledger, body) => runDecision(ctx.ws, ctx.author!, ledger, body)),
  );
  return app;
}
