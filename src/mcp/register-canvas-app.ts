/**
 * The canvas drawn inside chat hosts (docs/mcp.md, "The canvas in chat hosts"): the MCP Apps
 * resource `ui://canvas/<ledger>`, registered through the extension's SDK.
 *
 * - Its content is the canvas's page as `canvas build` and `canvas render` make it (the same
 *   renderer, from the same snapshot), read-only, with the view's module inline: the script
 *   that keeps the page at the canvas's revision through the host's bridge (src/mcp/app/).
 * - Its policy admits nothing the static page does not: the page's own Content-Security-Policy
 *   (the view's script admitted by its hash), and `_meta.ui.csp` declares no domain at all, but
 *   the pinned Mermaid entry and chunk folder on a page that draws a Mermaid figure.
 * - Reading it needs viewer, as canvas_read does; it does not make the reader a watcher (a
 *   person looks at it, not the agent).
 *
 * A refusal is a JSON-RPC error -32602 with the error shape as data, as the canvas resource's.
 */
import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import { type McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate } from '@modelcontextprotocol/server';
import { indexNodes } from '../model/index-nodes.js';
import { MERMAID_PIN } from '../render/figures/mermaid-pin.js';
import { readPackageFile, readSnapshot } from '../store/index.js';
import { protocolErrorOf } from './register-canvas-resources.js';
import { requireViewer } from './require-viewer.js';
import type { ServerContext } from './server-context.js';

/** The URI of a canvas's view. */
export const appUriOf = (ledger: string): string => `ui://canvas/${ledger}`;

/**
 * The ledger a `ui://canvas/<ledger>` URI names.
 *
 * @throws ProtocolError -32602 for a URI with a path, query or fragment
 */
function ledgerOfApp(uri: string): string {
  const m = /^ui:\/\/canvas\/([^/?#]+)$/.exec(uri);
  if (!m) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} is not a canvas view: its URI is ui://canvas/<ledger>`, { uri });
  return m[1]!;
}

/**
 * The view's script as the build bundled it (dist/mcp/app.js), read once per process.
 *
 * @throws Error naming the missing bundle and the command that makes it, when the package was not built
 */
async function appScript(): Promise<string> {
  try {
    return await readPackageFile('dist/mcp/app.js');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new Error("the canvas view's script dist/mcp/app.js is not built: run npm run build");
  }
}

/**
 * Register `ui://canvas/{ledger}` on a server not yet connected (docs/mcp.md, "The canvas in chat
 * hosts"). Not listed by `resources/list` (the extension lets a view be found from the results
 * that link it); its template is listed.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerCanvasApp(server: McpServer, ctx: ServerContext): void {
  const template = new ResourceTemplate('ui://canvas/{ledger}', { list: undefined });
  registerAppResource(
    server,
    'canvas-view',
    // The SDK's helper passes the URI on to registerResource, which takes a template as well.
    template as unknown as string,
    {
      title: 'A canvas, drawn',
      description: "The canvas's page, read-only, kept at its revision while shown.",
      _meta: { ui: { csp: {}, prefersBorder: true } },
    },
    async (uri) => {
      const ledger = ledgerOfApp(uri.href);
      try {
        await requireViewer(ctx, ledger);
        const snapshot = await readSnapshot(ctx.ws, { ledger });
        const [{ preparePage }, { renderPage }, text] = await Promise.all([import('../render/html/prepare-page.js'), import('../render/html/render-page.js'), appScript()]);
        const page = renderPage(snapshot, { ...(await preparePage(snapshot)), script: { text, data: { 'canvas-ledger': ledger, 'canvas-workspace': ctx.ws.root } } });
        const mermaid = [...indexNodes(snapshot.canvas).values()].some(({ node }) => node.type === 'figure' && node.kind === 'mermaid');
        const csp: { resourceDomains?: string[] } = mermaid ? { resourceDomains: [MERMAID_PIN.url, MERMAID_PIN.chunks] } : {};
        return { contents: [{ uri: appUriOf(ledger), mimeType: RESOURCE_MIME_TYPE, text: page, _meta: { ui: { csp, prefersBorder: true } } }] };
      } catch (e) {
        throw protocolErrorOf(e);
      }
    },
  );
}
