// The canvas drawn inside chat hosts (docs/mcp.md, "The canvas in chat hosts"): the MCP Apps
// resource ui://canvas/<ledger> as a host reads it, in process. Its page is the one `canvas
// render` makes, with the view's script added and admitted by its hash alone; its declared policy
// names no domain, but the pinned Mermaid module on a page that draws a Mermaid figure; canvas_read's
// result links it; a reader without a role is refused. Chromium drawing it through the SDK's host
// bridge is test/mcp/canvas-app-in-browser.test.ts.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { runMain } from '../helpers/run-main.js';
import { tempWorkspace } from '../helpers/workspace.js';

const AUTHOR = 'leo';

/** Insert a node at the top of a canvas; returns its id. */
async function insert(ws: Workspace, ledger: string, payload: Parameters<typeof insertNode>[1]['payload'], why: string): Promise<string> {
  const { revision } = await readSnapshot(ws, { ledger });
  const o = await insertNode(ws, { ledger, into: 'root', payload, base: revision, why, author: AUTHOR });
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o.node!;
}

/** A page's Content-Security-Policy, as its meta says it. */
const policyOf = (html: string): string | undefined => /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replaceAll('&#x27;', "'");

/** The text of one `<tag ...>...</tag>` of a page, `null` when it has none. */
const elementOf = (html: string, open: RegExp): string | null => open.exec(html)?.[0] ?? null;

describe('ui://canvas/<ledger>, the canvas a chat host draws (in process)', () => {
  let ws: Workspace;
  let client: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-app-');
    for (const ledger of ['plain', 'drawn', 'hidden']) await createCanvas(ws, { ledger, why: 'a canvas to draw', author: AUTHOR });
    ids.text = await insert(ws, 'plain', { text: 'Ship the view.' }, 'the aim');
    ids.question = await insert(ws, 'plain', { question: 'Poll or listen?' }, 'not decided');
    ids.figure = await insert(ws, 'drawn', { xml: '<figure kind="mermaid" caption="the path">flowchart LR\n  A --&gt; B</figure>' }, 'the path as a diagram');
    for (const ledger of ['plain', 'drawn']) await grantRole(ws, { ledger, who: 'ana', role: 'viewer', why: 'ana reads it', author: AUTHOR });
    const server = await createMcpServer({ who: 'ana', workspace: ws.root });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'canvas-test-host', version: '0.0.0' });
    await client.connect(b);
  });

  afterAll(async () => {
    await client.close();
  });

  it("is the page canvas render makes, with the view's module admitted by its hash and nothing else", async () => {
    const { contents } = await client.readResource({ uri: 'ui://canvas/plain' });
    expect(contents).toHaveLength(1);
    const c = contents[0] as { uri: string; mimeType: string; text: string; _meta: unknown };
    expect([c.uri, c.mimeType]).toEqual(['ui://canvas/plain', 'text/html;profile=mcp-app']);
    expect(c._meta).toEqual({ ui: { csp: {}, prefersBorder: true } });

    // The same page as canvas render's: the same body, the same stylesheet; the head adds only the view's module.
    const rendered = await runMain(ws, ['render', 'plain']);
    expect(rendered.code, rendered.stderr).toBe(0);
    const body = (html: string) => elementOf(html, /<body>[\s\S]*<\/body>/);
    expect(body(c.text)).toBe(body(rendered.stdout));
    expect(elementOf(c.text, /<style>[\s\S]*?<\/style>/)).toBe(elementOf(rendered.stdout, /<style>[\s\S]*?<\/style>/));
    const script = /<script type="module" data-canvas-ledger="plain" data-canvas-workspace="([^"]+)">([\s\S]*?)<\/script>/.exec(c.text);
    expect(script?.[1]).toBe(ws.root);
    expect(c.text.match(/<script/g)).toHaveLength(1);
    // Read-only, with the question index and each node's reasons.
    expect(c.text).toContain(`<a href="#${ids.question}">`);
    expect(c.text).toMatch(new RegExp(`id="${ids.text}"[\\s\\S]*<details class="why">\\s*<summary>${ids.text}</summary>`));
    expect(c.text).not.toMatch(/<form|<input|<textarea|<button/);

    const policy = policyOf(c.text);
    const hash = `'sha256-${createHash('sha256').update(script![2]!, 'utf8').digest('base64')}'`;
    const renderedPolicy = policyOf(rendered.stdout);
    // canvas render's policy, and a script-src of the view's hash alone: no connect-src, no 'self', no domain.
    expect(policy).toBe(renderedPolicy!.replace("; base-uri 'none'", `; script-src ${hash}; base-uri 'none'`));
    expect(policy).not.toMatch(/connect-src|'self'|unsafe|https?:/);
  });

  it('declares the pinned Mermaid module, and only it, on a page that draws a Mermaid figure', async () => {
    const { contents } = await client.readResource({ uri: 'ui://canvas/drawn' });
    const c = contents[0] as { text: string; _meta: unknown };
    expect(c._meta).toEqual({ ui: { csp: { resourceDomains: [MERMAID_PIN.url, MERMAID_PIN.chunks] }, prefersBorder: true } });
    expect(c.text).toContain(`id="${ids.figure}"`);
    expect(c.text).toContain(`<script type="module" src="${MERMAID_PIN.url}"`);
  });

  it("is linked from canvas_read's result, whatever the format, and listed as a template", async () => {
    for (const format of [undefined, 'text', 'html']) {
      const r = await client.callTool({ name: 'canvas_read', arguments: { workspace: ws.root, ledger: 'plain', ...(format ? { format } : {}) } });
      expect(r._meta).toEqual({ ui: { resourceUri: 'ui://canvas/plain' } });
    }
    const refused = await client.callTool({ name: 'canvas_read', arguments: { workspace: ws.root, ledger: 'hidden' } });
    expect(refused.structuredContent).toMatchObject({ error: { code: 'NO_ROLE' } });
    expect(refused._meta).toBeUndefined();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.find((t) => t.uriTemplate === 'ui://canvas/{ledger}')).toMatchObject({ mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: {}, prefersBorder: true } } });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['canvas://drawn', 'canvas://plain']);
  });

  it('refuses a canvas the reader holds no role on, one that does not exist, and a URI with a path, as -32602 with the error shape', async () => {
    const refusal = async (uri: string) => {
      try {
        await client.readResource({ uri });
      } catch (e) {
        expect(e).toBeInstanceOf(McpError);
        return { code: (e as McpError).code, canvas: ((e as McpError).data as { code?: string } | undefined)?.code };
      }
      throw new Error(`${uri} was read`);
    };
    expect(await refusal('ui://canvas/hidden')).toEqual({ code: -32602, canvas: 'NO_ROLE' });
    expect(await refusal('ui://canvas/nowhere')).toEqual({ code: -32602, canvas: 'CANVAS_NOT_FOUND' });
    expect(await refusal('ui://canvas/plain/more')).toMatchObject({ code: -32602 });
  });
});
