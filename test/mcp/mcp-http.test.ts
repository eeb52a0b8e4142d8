// The MCP server over Streamable HTTP at canvas serve's /mcp (docs/mcp.md, "Over HTTP"): agents
// with their own tokens and roles, both official clients, the refusals, and that a refused
// request writes nothing.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHttp } from '../../src/mcp/mcp-http.js';
import { addAgentToken, grantRole, listAgentTokens, revokeAgentToken, runGit } from '../../src/store/index.js';
import { serveCanvas } from '../../src/serve/serve-canvas.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AUTHOR, ROOT } from '../helpers/workspace.js';
import { rawRequest, revisionOf, type Served, servedWorkspace, TOKEN } from '../serve/serve-fixture.js';

let served: Served;
let url: string;
const tokens: Record<string, string> = {};
const sessions: McpSession[] = [];

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

beforeAll(async () => {
  // The fixture's own server (no /mcp) is closed; this one serves /mcp too.
  served = await servedWorkspace();
  await served.server.close();
  for (const who of ['agent', 'cam', 'nobody', 'gone']) tokens[who] = (await addAgentToken(served.ws, who)).token;
  const mcp = await createMcpHttp(served.ws, { maxBodyBytes: 64 * 1024 });
  served.server = await serveCanvas(served.ws, { port: 0, author: AUTHOR, token: TOKEN, rescanMs: 60_000, mcp });
  url = `${served.server.origin}/mcp`;
});

afterAll(async () => {
  for (const s of sessions) await s.close();
  await served.server.close();
});

async function session(who: string, sdk: 'v1' | 'v2'): Promise<McpSession> {
  const s = await connectAs(served.ws, who, { sdk, http: { url, token: tokens[who]! } });
  sessions.push(s);
  return s;
}

const git = async (...args: string[]) => (await runGit(served.ws.repo, args)).stdout.trim();
const mainRef = () => git('rev-parse', 'main');

describe('agents with their own tokens and roles, one server', () => {
  it.each(['v1', 'v2'] as const)('an editor applies and a commenter proposes, each authored as its token’s who (%s client)', async (sdk) => {
    const agent = await session('agent', sdk);
    const cam = await session('cam', sdk);
    expect(agent.protocol).toBe(sdk === 'v1' ? '2025-11-25' : '2026-07-28');
    const base = await revisionOf(served.ws);
    const applied = await agent.write('canvas_insert', { workspace: served.ws.root, ledger: 'demo', into: 'root', text: `Agent over HTTP (${sdk}).`, base, why: 'said from another machine' });
    expect(applied.outcome).toBe('applied');
    const proposed = await cam.write('canvas_replace', {
      workspace: served.ws.root,
      ledger: 'demo',
      node: served.ids.text,
      text: `Cam would serve the built pages (${sdk}).`,
      base: await revisionOf(served.ws),
      why: 'a commenter suggests',
    });
    expect(proposed.outcome).toBe('proposed');
    const log = (await git('log', '-2', '--format=%an|%s')).split('\n');
    expect(log[1]).toMatch(/^agent\|insert /);
    expect(log[0]).toMatch(/^cam\|propose /);
  });

  it('a who without a role on the canvas is refused as over stdio (NO_ROLE), with its own token', async () => {
    const nobody = await session('nobody', 'v2');
    const e = await nobody.error('canvas_read', { workspace: served.ws.root, ledger: 'demo' });
    expect(e.code).toBe('NO_ROLE');
  });

  it('a 2026-07-28 listen hears a write; a listen naming a canvas the who may not read is refused whole', async () => {
    const agent = await session('agent', 'v2');
    const heard: string[] = [];
    let told: () => void = () => {};
    const got = new Promise<void>((resolve) => {
      told = resolve;
    });
    // follow resolves once the listen is acknowledged, so the write after it is heard.
    const stop = await agent.follow('demo', (uri) => {
      heard.push(uri);
      told();
    });
    const base = await revisionOf(served.ws);
    await agent.write('canvas_insert', { workspace: served.ws.root, ledger: 'demo', into: 'root', text: 'Heard over HTTP.', base, why: 'a listener hears it' });
    await got;
    expect(heard[0]).toBe('canvas://demo');
    await stop();

    const before = await mainRef();
    const nobody = await session('nobody', 'v2');
    await expect(nobody.follow('demo', () => {})).rejects.toThrow(/NO_ROLE|not|role/i);
    expect(await mainRef()).toBe(before);
  });
});

describe('an agent on another machine', () => {
  it('opens, reads, writes and watches a canvas from a process with no workspace, talking only HTTP', async () => {
    const dir = tempDir('canvas-remote-agent-');
    const script = join(dir, 'agent.mjs');
    const sdk = pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/client/dist/index.mjs')).href;
    writeFileSync(
      script,
      `import { Client, StreamableHTTPClientTransport } from ${JSON.stringify(sdk)};
const [url, token, workspace] = process.argv.slice(2);
const client = new Client({ name: 'far', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer ' + token } } }));
const call = async (name, args) => (await client.callTool({ name, arguments: { workspace, ...args } })).structuredContent;
const opened = await call('canvas_open', { ledger: 'far', problem: 'Agents elsewhere.', expectedValue: 'One canvas.', why: 'opened from afar' });
const read = await call('canvas_read', { ledger: 'far' });
const wrote = await call('canvas_insert', { ledger: 'far', into: 'root', question: 'Which host?', base: read.revision, why: 'asked from afar' });
const watch = await call('canvas_watch', { ledger: 'far' });
const inbox = await call('canvas_inbox', {});
console.log(JSON.stringify({ opened: opened.outcome, read: read.xml.includes('Agents elsewhere.'), wrote: wrote.outcome, watching: watch.watching, inbox: Array.isArray(inbox.events) }));
await client.close();
`,
    );
    const env = { PATH: process.env.PATH ?? '', TMPDIR: process.env.TMPDIR ?? '' };
    const child = spawn(process.execPath, [script, url, tokens.agent!, served.ws.root], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ opened: 'applied', read: true, wrote: 'applied', watching: true, inbox: true });
    expect(await git('log', '-1', '--format=%an', 'refs/canvas/far')).toBe('agent');
  });
});

describe('refused requests write nothing', () => {
  const post = (headers: Record<string, string>, body = INIT) =>
    rawRequest(
      served.server.port,
      'POST',
      '/mcp',
      {
        host: `127.0.0.1:${served.server.port}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    );

  it('401 with WWW-Authenticate: Bearer without a token, with a wrong one, with the tab’s secret, with the tab’s cookie alone', async () => {
    const before = await mainRef();
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer canvas_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      { authorization: `Bearer ${TOKEN}` },
      { authorization: `Basic ${Buffer.from(`agent:${tokens.agent}`).toString('base64')}` },
      { cookie: served.cookie },
    ];
    for (const headers of cases) {
      const r = await post(headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(String(r.headers['www-authenticate'])).toMatch(/^Bearer realm="canvas"/);
      expect(JSON.parse(r.body).error.code).toBe('MCP_UNAUTHORIZED');
      // The token is never echoed.
      expect(r.body).not.toContain(tokens.agent!);
    }
    expect(await mainRef()).toBe(before);
  });

  it('an agent token opens no page and makes no tab write; the tab’s secret opens no /mcp', async () => {
    const pageWithToken = await rawRequest(served.server.port, 'GET', `/demo/?token=${tokens.agent}`, { host: `127.0.0.1:${served.server.port}` });
    expect(pageWithToken.status).toBe(403);
    const pageWithBearer = await rawRequest(served.server.port, 'GET', '/demo/', { host: `127.0.0.1:${served.server.port}`, authorization: `Bearer ${tokens.agent}` });
    expect(pageWithBearer.status).toBe(403);
    const mcpWithTabToken = await rawRequest(served.server.port, 'POST', `/mcp?token=${TOKEN}`, { host: `127.0.0.1:${served.server.port}`, 'content-type': 'application/json' }, INIT);
    expect(mcpWithTabToken.status).toBe(401);
  });

  it('a 2025-era request is answered with one JSON body; its protocol version header and a call’s arguments are checked as before', async () => {
    const auth = { authorization: `Bearer ${tokens.agent}` };
    const init = await post(auth);
    expect(init.status).toBe(200);
    expect(String(init.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(init.body).result.serverInfo.name).toBe('canvas');
    const call = (name: string, args: Record<string, unknown>, version = '2025-11-25') =>
      post({ ...auth, 'mcp-protocol-version': version }, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }));
    expect((await call('canvas_list', { workspace: served.ws.root }, '1999-01-01')).status).toBe(400);
    const listed = await call('canvas_list', { workspace: served.ws.root });
    expect(String(listed.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(listed.body).result.structuredContent.canvases.map((c: { ledger: string }) => c.ledger)).toContain('demo');
    const unchecked = JSON.parse((await call('canvas_list', { workspace: served.ws.root, ledgr: 'demo' })).body).result;
    expect(unchecked.isError).toBe(true);
    expect(JSON.stringify(unchecked.content)).toContain('ledgr is not an argument');
    const unknown = JSON.parse((await call('canvas_nothing', {})).body);
    expect(JSON.stringify(unknown)).toContain('canvas_nothing');
  });

  it('a revoked token is refused at its next request', async () => {
    const ok = await post({ authorization: `Bearer ${tokens.gone}` });
    expect(ok.status).toBe(200);
    await revokeAgentToken(served.ws, 'gone');
    expect(listAgentTokens(served.ws).map((t) => t.who)).not.toContain('gone');
    const r = await post({ authorization: `Bearer ${tokens.gone}` });
    expect(r.status).toBe(401);
  });

  it('a foreign Host or Origin is 403 (DNS rebinding), a body over the limit 413, a write of a viewer nothing', async () => {
    const before = await mainRef();
    const auth = { authorization: `Bearer ${tokens.agent}` };
    const host = await post({ ...auth, host: 'evil.example:80' });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.data.rule).toBe('host');
    const origin = await post({ ...auth, origin: 'http://evil.example' });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.data.rule).toBe('origin');
    const big = await post(auth, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.data.rule).toBe('size');
    const notJson = await post(auth, '{"jsonrpc":');
    expect(notJson.status).toBe(400);
    const options = await rawRequest(served.server.port, 'OPTIONS', '/mcp', { host: `127.0.0.1:${served.server.port}`, ...auth });
    expect(options.status).toBe(405);
    expect(options.headers['access-control-allow-origin']).toBeUndefined();
    expect(await mainRef()).toBe(before);

    await grantRole(served.ws, { ledger: 'demo', who: 'nobody', role: 'viewer', why: 'nobody may look', author: AUTHOR });
    const viewer = await session('nobody', 'v1');
    const base = await revisionOf(served.ws);
    const granted = await mainRef();
    const rejected = await viewer.write('canvas_insert', { workspace: served.ws.root, ledger: 'demo', into: 'root', text: 'A viewer tries.', base, why: 'not allowed' });
    expect(rejected.outcome).toBe('rejected');
    expect(await mainRef()).toBe(granted);
  });
});
