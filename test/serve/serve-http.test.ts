// canvas serve over HTTP, in process (docs/serve.md): the guard refuses with nothing written, the
// pages are the built pages plus the live assets, writes go through the store's verbs with their
// outcomes as the store gives them, the one watcher reports moved refs on the event stream, and
// the server keeps writing across its git helpers' idle periods.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { preparePage } from '../../src/render/html/prepare-page.js';
import { renderPage } from '../../src/render/html/render-page.js';
import { buildSite } from '../../src/site/build-site.js';
import { loadRenderers } from '../../src/site/load-renderers.js';
import { nodeHistory } from '../../src/store/read/node-history.js';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import { serveCanvas } from '../../src/serve/serve-canvas.js';
import { AUTHOR, repoState } from '../helpers/workspace.js';
import { eventStream, rawRequest, revisionOf, type Served, servedWorkspace, TOKEN } from './serve-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

let s: Served;
const extra: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  s = await servedWorkspace();
});
afterAll(async () => {
  await s.server.close();
});
afterEach(async () => {
  for (const x of extra.splice(0)) await x.close();
});

const host = () => `127.0.0.1:${s.server.port}`;
const get = (path: string, headers: Record<string, string> = {}) => rawRequest(s.server.port, 'GET', path, { host: host(), cookie: s.cookie, ...headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  rawRequest(s.server.port, 'POST', path, { host: host(), cookie: s.cookie, origin: s.server.origin, 'content-type': 'application/json', ...headers }, typeof body === 'string' ? body : JSON.stringify(body));

/** The page without what the server adds: the live stylesheet and script, and the CSP meta. */
function withoutLive(html: string): string {
  return html
    .replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, '')
    .replaceAll(/\n?<link rel="stylesheet" href="\/_canvas\/live\.css">/g, '')
    .replaceAll(/\n?<script type="module" src="\/_canvas\/live\.js"><\/script>/g, '');
}

describe('canvas serve: the guard (docs/serve.md, "Security")', () => {
  it('refuses a request without the token, and exchanges the token for an HttpOnly SameSite=Strict cookie', async () => {
    const none = await rawRequest(s.server.port, 'GET', '/demo/', { host: host() });
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body).error).toMatchObject({ code: 'SERVE_FORBIDDEN', data: { rule: 'token' } });
    const wrong = await rawRequest(s.server.port, 'GET', '/demo/?token=nope', { host: host() });
    expect(JSON.parse(wrong.body).error).toMatchObject({ code: 'SERVE_FORBIDDEN', data: { rule: 'token' } });
    const right = await rawRequest(s.server.port, 'GET', `/demo/?token=${TOKEN}`, { host: host() });
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/demo/');
    expect(right.headers['set-cookie']).toEqual([`canvas-token-${s.server.port}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`]);
    expect(s.server.url).toBe(`http://127.0.0.1:${s.server.port}/?token=${TOKEN}`);
  });

  it('refuses a wrong Host, a write without the token and a cross-origin or origin-less write, with nothing written', async () => {
    const before = repoState(s.ws);
    const base = await revisionOf(s.ws);
    const edit = { op: 'replace', id: s.ids.text, base, why: 'an attack', node: { type: 'text', text: 'pwned' } };
    const rebound = await get('/demo/', { host: `evil.test:${s.server.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.data.rule).toBe('host');
    const cases: Array<[Record<string, string>, string]> = [
      [{ host: `localhost:${s.server.port}` }, 'host'],
      [{ cookie: '' }, 'token'],
      [{ cookie: `canvas-token-${s.server.port}=nope` }, 'token'],
      [{ origin: 'http://evil.test' }, 'origin'],
      [{ origin: `http://127.0.0.1:${s.server.port + 1}` }, 'origin'],
      [{ origin: '' }, 'origin'],
    ];
    for (const [headers, rule] of cases) {
      const r = await post('/demo/_write', edit, headers);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(r.body).error, JSON.stringify(headers)).toMatchObject({ code: 'SERVE_FORBIDDEN', data: { rule } });
    }
    expect(repoState(s.ws)).toEqual(before);
  });

  it('takes JSON only, within a size limit, in the shapes the page sends; answers no CORS preflight', async () => {
    const before = repoState(s.ws);
    const base = await revisionOf(s.ws);
    const edit = JSON.stringify({ op: 'replace', id: s.ids.text, base, why: 'x', node: { type: 'text', text: 'y' } });
    const plain = await post('/demo/_write', edit, { 'content-type': 'text/plain' });
    expect([plain.status, JSON.parse(plain.body).error.code, JSON.parse(plain.body).error.data.rule]).toEqual([415, 'SERVE_BAD_REQUEST', 'content-type']);
    const form = await post('/demo/_write', 'op=replace', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const big = await post('/demo/_write', JSON.stringify({ op: 'replace', id: s.ids.text, base, why: 'x', node: { type: 'text', text: 'y'.repeat(1_200_000) } }));
    expect([big.status, JSON.parse(big.body).error.data.rule]).toEqual([413, 'size']);
    const broken = await post('/demo/_write', '{"op":');
    expect([broken.status, JSON.parse(broken.body).error.data.rule]).toEqual([400, 'json']);
    const shape = await post('/demo/_write', { op: 'replace', id: s.ids.text, base, why: 'x', node: { type: 'text', text: 'y' }, xml: '<text>whole</text>' });
    expect([shape.status, JSON.parse(shape.body).error.data.rule]).toEqual([400, 'shape']);
    // Every figure kind is a shape the page may send (the store then judges the base and content).
    for (const kind of ['diagram', 'mermaid', 'svg', 'excalidraw']) {
      const r = JSON.parse((await post('/demo/_write', { op: 'insert', after: s.ids.text, base: 'not-a-sha', why: 'x', node: { type: 'figure', kind, source: 'x' } })).body);
      expect(r, kind).toMatchObject({ outcome: 'rejected' });
      expect(r.error, kind).toBeUndefined();
    }
    const preflight = await rawRequest(s.server.port, 'OPTIONS', '/demo/_write', {
      host: host(),
      origin: 'http://evil.test',
      'access-control-request-method': 'POST',
    });
    expect(preflight.status).toBe(403);
    const options = await rawRequest(s.server.port, 'OPTIONS', '/demo/_write', { host: host(), cookie: s.cookie });
    expect([options.status, JSON.parse(options.body).error.data.rule]).toEqual([405, 'method']);
    for (const r of [plain, big, preflight, options]) expect(Object.keys(r.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
    expect(repoState(s.ws)).toEqual(before);
  });

  it('serves pages with a strict policy: scripts from itself and the pinned Mermaid module only, never framed', async () => {
    const page = await get('/demo/');
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    // The index's own script and Mermaid's start-up, by their hashes.
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'self' 'sha256-[^']+' 'sha256-[^']+' https:\/\/cdn\.jsdelivr\.net\/npm\/mermaid@12\.3\.0\/dist\/mermaid\.esm\.min\.mjs https:\/\/cdn\.jsdelivr\.net\/npm\/mermaid@12\.3\.0\/dist\/chunks\/mermaid\.esm\.min\/;/,
    );
    const indexScript = readFileSync(join(import.meta.dirname, '..', '..', 'templates', 'index.js'), 'utf8');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(indexScript, 'utf8').digest('base64')}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page.body)![1]!.replaceAll('&#x27;', "'");
    // A live page without a Mermaid figure still admits the pinned module: an update may bring one.
    expect(meta).toContain(`script-src 'self' ${MERMAID_PIN.url} ${MERMAID_PIN.chunks}; connect-src 'self'`);
    const script = await get('/_canvas/live.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'serve', 'live.js'), 'utf8'));
  });
});

describe('canvas serve: the pages (docs/serve.md, "The pages")', () => {
  it('serves the page canvas build makes, apart from the live script and stylesheet', async () => {
    const snapshot = await readSnapshot(s.ws, { ledger: 'demo' });
    const built = renderPage(snapshot, { ...(await preparePage(snapshot)), index: '../index.html' });
    const served = (await get('/demo/')).body;
    expect(served).not.toBe(built);
    expect(served).toContain('<script type="module" src="/_canvas/live.js"></script>');
    expect(withoutLive(served)).toBe(withoutLive(built));
    expect((await get('/demo/index.html')).body).toBe(served);
  });

  it('serves the index canvas build makes, apart from the live script and stylesheet', async () => {
    const out = join(tempDir('canvas-serve-site-'), 'site');
    await buildSite(s.ws, { out }, await loadRenderers());
    const built = readFileSync(join(out, 'index.html'), 'utf8');
    const served = (await get('/')).body;
    expect(withoutLive(served)).toBe(withoutLive(built));
    expect(withoutLive(readFileSync(join(out, 'demo', 'index.html'), 'utf8'))).toBe(withoutLive((await get('/demo/')).body));
  });
});

describe('canvas serve: writing through the verbs (docs/serve.md, "Editing")', () => {
  it('applies an edit as the person running the server; canvas history shows it', async () => {
    const base = await revisionOf(s.ws);
    const r = await post('/demo/_write', { op: 'replace', id: s.ids.question, base, why: 'decided: watch the refs', node: { type: 'question', text: 'Poll or watch? Watch.', answered: true } });
    const o = JSON.parse(r.body);
    expect(o).toMatchObject({ outcome: 'applied', node: s.ids.question, diff: [] });
    const h = await nodeHistory(s.ws, { ledger: 'demo', node: s.ids.question });
    expect(h.at(-1)).toMatchObject({ commit: o.revision, op: 'replace', author: AUTHOR, reason: 'decided: watch the refs' });
    expect((await readSnapshot(s.ws, { ledger: 'demo' })).canvas.children.some((n) => n.type === 'section' && n.children.some((c) => c.type === 'question' && c.answered))).toBe(true);
  });

  it('refuses a reason with a line break, and a stale edit is a conflict with the diff and reasons: nothing written', async () => {
    const base = await revisionOf(s.ws);
    const before = repoState(s.ws);
    const bad = JSON.parse((await post('/demo/_write', { op: 'replace', id: s.ids.text, base, why: 'two\nlines', node: { type: 'text', text: 'x' } })).body);
    expect(bad).toMatchObject({ outcome: 'rejected', code: 'BAD_REASON' });
    expect(repoState(s.ws)).toEqual(before);
    const moved = await replaceNode(s.ws, { ledger: 'demo', node: s.ids.text, payload: { text: 'Serve the built pages, live.' }, base, why: 'an agent sharpened it', author: 'agent | step:s1' });
    expect(moved.outcome).toBe('applied');
    const after = repoState(s.ws);
    const stale = JSON.parse((await post('/demo/_write', { op: 'replace', id: s.ids.text, base, why: 'my version', node: { type: 'text', text: 'Mine.' } })).body);
    expect(stale).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: s.ids.text, expectedRevision: base });
    expect(stale.diff[0]).toMatchObject({ node: s.ids.text, change: 'replaced', commits: [{ author: 'agent | step:s1', reason: 'an agent sharpened it' }] });
    expect(repoState(s.ws)).toEqual(after);
  });

  it("makes a commenter's edit a proposal, which an editor's server approves", async () => {
    const cam = await serveCanvas(s.ws, { port: 0, author: 'cam', token: TOKEN });
    extra.push(cam);
    const base = await revisionOf(s.ws);
    const r = await rawRequest(
      cam.port,
      'POST',
      '/demo/_write',
      { host: `127.0.0.1:${cam.port}`, cookie: `canvas-token-${cam.port}=${TOKEN}`, origin: cam.origin, 'content-type': 'application/json' },
      JSON.stringify({ op: 'insert', after: s.ids.text, base, why: 'a reader would ask', node: { type: 'question', text: 'Who reads the events?', answered: false } }),
    );
    const proposed = JSON.parse(r.body);
    expect(proposed).toMatchObject({ outcome: 'proposed' });
    const session = JSON.parse((await get('/demo/_session')).body);
    expect(session).toMatchObject({ author: AUTHOR, role: 'owner' });
    expect(session.proposals.map((p: { id: string }) => p.id)).toEqual([proposed.proposalId]);
    const camSession = JSON.parse((await rawRequest(cam.port, 'GET', '/demo/_session', { host: `127.0.0.1:${cam.port}`, cookie: `canvas-token-${cam.port}=${TOKEN}` })).body);
    expect(camSession).toMatchObject({ role: 'commenter', proposals: [] });
    const approved = JSON.parse((await post('/demo/_decide', { decision: 'approve', proposal: proposed.proposalId, why: 'yes, ask it' })).body);
    expect(approved).toMatchObject({ outcome: 'applied' });
    const h = await nodeHistory(s.ws, { ledger: 'demo', node: approved.node });
    expect(h).toMatchObject([{ op: 'insert', author: AUTHOR, proposedBy: 'cam', reason: 'yes, ask it' }]);
  });

  it('a server started without an author only reads', async () => {
    const ro = await serveCanvas(s.ws, { port: 0, author: null, token: TOKEN });
    extra.push(ro);
    const before = repoState(s.ws);
    const headers = { host: `127.0.0.1:${ro.port}`, cookie: `canvas-token-${ro.port}=${TOKEN}`, origin: ro.origin, 'content-type': 'application/json' };
    const r = await rawRequest(ro.port, 'POST', '/demo/_write', headers, JSON.stringify({ op: 'remove', id: s.ids.text, base: await revisionOf(s.ws), why: 'x' }));
    expect(JSON.parse(r.body).error).toMatchObject({ code: 'BAD_AUTHOR' });
    expect(repoState(s.ws)).toEqual(before);
  });
});

describe('canvas serve: live (docs/serve.md, "Live")', () => {
  it('tells an open event stream which canvas moved, and what changed since the page’s revision', async () => {
    const { next, close } = await eventStream(s.server, s.cookie);
    const base = await revisionOf(s.ws);
    expect(await next('hello')).toEqual({ demo: base });
    const w = await replaceNode(s.ws, { ledger: 'demo', node: s.ids.text, payload: { text: 'Serve the pages, and say when they move.' }, base, why: 'the live part is the point', author: 'agent | step:s2' });
    if (w.outcome !== 'applied') throw new Error(JSON.stringify(w));
    expect(await next('change')).toEqual([{ ledger: 'demo', from: base, to: w.revision }]);
    const since = JSON.parse((await get(`/demo/_since?base=${base}`)).body);
    expect(since).toMatchObject({ base, revision: w.revision, commits: [{ op: 'replace', author: 'agent | step:s2', reason: 'the live part is the point' }] });
    expect(since.diff).toMatchObject([{ node: s.ids.text, change: 'replaced', commits: [{ commit: w.revision }] }]);
    close();
  });

  it('keeps writing across its git helpers’ idle periods, a long-lived process', async () => {
    const saved = process.env.CANVAS_GIT_IDLE_MS;
    process.env.CANVAS_GIT_IDLE_MS = '20';
    try {
      for (let i = 0; i < 6; i += 1) {
        // Pauses on both sides of the idle period: the helpers close between some writes, not others.
        await new Promise((r) => setTimeout(r, i % 2 === 0 ? 60 : 5));
        const base = await revisionOf(s.ws);
        const o = JSON.parse((await post('/demo/_write', { op: 'replace', id: s.ids.text, base, why: `pass ${i} after a pause`, node: { type: 'text', text: `Pass ${i}.` } })).body);
        expect(o.outcome, JSON.stringify(o)).toBe('applied');
        expect((await get('/demo/')).body).toContain(`Pass ${i}.`);
      }
      expect((await verifyWorkspace(s.ws)).violations).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.CANVAS_GIT_IDLE_MS;
      else process.env.CANVAS_GIT_IDLE_MS = saved;
    }
  });
});
