// The canvas drawn inside a chat host (docs/mcp.md, "The canvas in chat hosts"), in real Chromium,
// played as a host plays it: the host's MCP client talks Streamable HTTP to canvas serve's /mcp with
// an agent's token; canvas_read's result links ui://canvas/<ledger>; the host reads it, puts it in a
// sandboxed iframe under the policy the extension has a host build from the resource's declared
// domains, and connects the MCP Apps SDK's own host bridge (AppBridge and PostMessageTransport,
// bundled from node_modules and served by this test) to it, relaying the view's calls to its client.
// The canvas shows, follows two writes made through the store, and no policy refuses anything.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgentToken } from '../../src/store/index.js';
import { replaceNode, insertNode } from '../../src/store/write/node-writes.js';
import { createMcpHttp } from '../../src/mcp/mcp-http.js';
import { serveCanvas } from '../../src/serve/serve-canvas.js';
import { revisionOf, type Served, servedWorkspace, TOKEN } from '../serve/serve-fixture.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { AUTHOR, ROOT } from '../helpers/workspace.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!run) process.stderr.write(`note: the MCP Apps host test skipped: no Chromium at ${CHROMIUM}\n`);

/** The host page: the view's sandboxed iframe (scripts only: an opaque origin), and the host's script. */
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>a chat host</title></head>
<body><iframe id="view" title="canvas" sandbox="allow-scripts" style="width:1000px;height:800px;border:0"></iframe>
<script type="module" src="/host.js"></script></body></html>`;

/**
 * The host's script: the policy the extension has a host build from `_meta.ui.csp` (its "CSP
 * construction from metadata"), put in the view's document ahead of the page's own, then the
 * SDK's bridge, whose tool calls and resource reads go to the test's client (`hostCallTool`,
 * `hostReadResource`), and the tool's input and result sent once the view is initialized.
 */
const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from '/bridge.js';
const policy = (csp) => {
  const r = (csp?.resourceDomains ?? []).join(' ');
  const c = (csp?.connectDomains ?? []).join(' ');
  return ["default-src 'none'", \`script-src 'self' 'unsafe-inline' \${r}\`, \`style-src 'self' 'unsafe-inline' \${r}\`, \`connect-src 'self' \${c}\`,
    \`img-src 'self' data: \${r}\`, \`font-src 'self' \${r}\`, \`media-src 'self' data: \${r}\`, "frame-src 'none'", "object-src 'none'", "base-uri 'self'"].join('; ');
};
window.show = async (html, csp, input, result) => {
  const iframe = document.getElementById('view');
  const bridge = new AppBridge(null, { name: 'test-host', version: '0.0.0' }, { serverTools: {}, serverResources: {}, openLinks: {} });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onreadresource = (params) => window.hostReadResource(params);
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html.replace('<head>', '<head><meta http-equiv="Content-Security-Policy" content="' + policy(csp) + '">');
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
};
window.hostReady = true;
`;

let browser: Browser;
let s: Served;
let agent: McpSession;
let host: Server;
let hostOrigin: string;
let bridgeScript: string;
/** What the view asked the host for, in order: `call <tool>` and `read <uri>`. */
const asked: string[] = [];
/** Requests that left the host's page for anywhere but the host (refused). */
const outside: string[] = [];
/** Messages of Chromium's console that name the Content Security Policy. */
const refusedInConsole: string[] = [];

/** The view's frame once the host has shown it. */
async function viewFrame(p: Page): Promise<Frame> {
  const frame = await (await p.waitForSelector('#view')).contentFrame();
  if (!frame) throw new Error('the view has no frame');
  return frame;
}

describe.runIf(run)('ui://canvas/<ledger> in a host page through the MCP Apps bridge, in Chromium', () => {
  beforeAll(async () => {
    const bundled = await build({
      stdin: { contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';", resolveDir: ROOT, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'warning',
    });
    bridgeScript = bundled.outputFiles[0]!.text;
    host = createServer((req, res) => {
      const body = req.url === '/' ? HOST_PAGE : req.url === '/host.js' ? HOST_SCRIPT : req.url === '/bridge.js' ? bridgeScript : null;
      if (body === null) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': req.url === '/' ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8' }).end(body);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    // The fixture's own server (no /mcp) is closed; this one serves /mcp too, as `canvas serve` does.
    s = await servedWorkspace();
    await s.server.close();
    s.server = await serveCanvas(s.ws, { port: 0, author: AUTHOR, token: TOKEN, rescanMs: 60_000, mcp: await createMcpHttp(s.ws) });
    const { token } = await addAgentToken(s.ws, 'agent');
    agent = await connectAs(s.ws, 'agent', { http: { url: `${s.server.origin}/mcp`, token } });
  });

  afterAll(async () => {
    await browser?.close();
    await agent?.close();
    await s?.server.close();
    await new Promise((resolve) => host?.close(resolve));
  });

  it('shows the canvas read-only with its questions and reasons, follows writes through the store, and no policy refuses anything', async () => {
    // The host calls canvas_read, as a model would, and reads the view its result links.
    const read = await agent.client.callTool({ name: 'canvas_read', arguments: { workspace: s.ws.root, ledger: 'demo' } });
    const uri = (read._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(uri).toBe('ui://canvas/demo');
    const { contents } = await agent.client.readResource({ uri: uri! });
    const view = contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: object } } };
    expect(view.mimeType).toBe('text/html;profile=mcp-app');

    const context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(hostOrigin)) return route.continue();
      outside.push(url);
      return route.abort('internetdisconnected');
    });
    await context.addInitScript(() => {
      const w = window as unknown as { refused: string[] };
      w.refused = [];
      document.addEventListener('securitypolicyviolation', (e) => w.refused.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const p = await context.newPage();
    p.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) refusedInConsole.push(m.text());
    });
    await p.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
      asked.push(`call ${params.name}`);
      return agent.client.callTool(params);
    });
    await p.exposeFunction('hostReadResource', async (params: { uri: string }) => {
      asked.push(`read ${params.uri}`);
      return agent.client.readResource(params);
    });
    await p.goto(`${hostOrigin}/`);
    await p.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
    await p.evaluate(([html, csp, input, result]) => (window as unknown as { show: (...a: unknown[]) => Promise<void> }).show(html, csp, input, result), [
      view.text,
      view._meta?.ui?.csp ?? {},
      { workspace: s.ws.root, ledger: 'demo' },
      read,
    ] as const);
    const frame = await viewFrame(p);

    // The canvas shows: its revision, the question index, each node with its reasons; nothing to edit.
    await frame.waitForSelector(`#questions a[href="#${s.ids.question}"]`);
    const revision = (read.structuredContent as { revision: string }).revision;
    expect(await frame.textContent('code.revision')).toBe(revision);
    expect(await frame.textContent(`#${s.ids.text} details.why summary`)).toBe(s.ids.text);
    expect(await frame.locator('form, input, textarea, button, [contenteditable]').count()).toBe(0);

    // A write through the store, as another writer makes it: the view follows through the bridge.
    const inserted = await insertNode(s.ws, { ledger: 'demo', into: 'root', payload: { text: 'Follow through the bridge.' }, base: await revisionOf(s.ws), why: 'the host draws it', author: AUTHOR });
    if (inserted.outcome !== 'applied') throw new Error(JSON.stringify(inserted));
    await frame.waitForSelector(`main #${inserted.node}`, { timeout: 60_000 });
    await frame.waitForFunction((r) => document.querySelector('code.revision')?.textContent === r, inserted.revision, { timeout: 60_000 });
    expect(await frame.textContent(`#${inserted.node}`)).toContain('Follow through the bridge.');

    // And again: the view keeps following after it has redrawn itself.
    const replaced = await replaceNode(s.ws, { ledger: 'demo', node: s.ids.question, payload: { question: 'Poll through the host?' }, base: await revisionOf(s.ws), why: 'narrowed', author: AUTHOR });
    if (replaced.outcome !== 'applied') throw new Error(JSON.stringify(replaced));
    await frame.waitForFunction((r) => document.querySelector('code.revision')?.textContent === r, replaced.revision, { timeout: 60_000 });
    expect(await frame.textContent(`#${s.ids.question}`)).toContain('Poll through the host?');
    expect(await frame.locator('#questions a').count()).toBe(1);

    // Every call went through the host, to the server the host holds; nothing left the page; nothing was refused.
    expect(new Set(asked)).toEqual(new Set(['call canvas_history', 'read ui://canvas/demo']));
    expect(outside).toEqual([]);
    expect(await frame.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual([]);
    expect(await p.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual([]);
    expect(refusedInConsole).toEqual([]);
    await context.close();
  });
});
