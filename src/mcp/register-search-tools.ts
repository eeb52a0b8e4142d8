import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CanvasError } from '../model/canvas-error.js';
import { NODE_TYPES } from '../model/types.js';
import { searchCanvases } from '../store/search/search-canvases.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { requireViewer } from './require-viewer.js';
import { SearchResultSchema } from './search-result-schema.js';
import type { ServerContext } from './server-context.js';
import { READ } from './tool-annotations.js';

/**
 * Register canvas_search (docs/mcp.md "The tools"; docs/search.md): nodes over the current
 * revision of every canvas the server's identity holds a role on, ranked, each with a snippet and
 * the revision to pass as `base`. One store function, as `canvas search` calls it.
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerSearchTools(server: McpServer, ctx: ServerContext): void {
  registerCanvasTool(
    server,
    ctx,
    'canvas_search',
    {
      title: 'Search the canvases',
      description: [
        'Find nodes over the current revision of every canvas you hold a role on: each node holding every word of `query` (the last word also as the start of a word), best first',
        '(the whole phrase before scattered words, then the BM25 score). JSON {"query","terms","total","hits":[{"ledger","node","type","revision","phrase","score","snippet","marks"}],"canvases","indexed","failures"}:',
        '`revision` is the canvas\'s current revision, the `base` for a write to that node; `snippet` quotes the node with each match between ** markers, `marks` gives their offsets.',
        'Read the canvas (canvas_read) before you decide on what a snippet shows.',
        'A refusal is {"error":{"code","message","hint"}}: USAGE when `query` holds no word; with `ledger`, NO_ROLE (reads need viewer), CANVAS_NOT_FOUND, BAD_LEDGER_ID.',
      ].join(' '),
      args: {
        query: z.string().describe('The words to find, for example "idle timeout". Case does not matter; punctuation separates words.'),
        ledger: z.string().optional().describe('Optional: search only this canvas (its ledger id). Leave it out to search every canvas you may read.'),
        type: z.array(z.enum(NODE_TYPES)).optional().describe('Optional: only nodes of these types, as `canvas search --type`.'),
        limit: z.number().int().min(1).max(1000).optional().describe('Optional: at most this many hits, best first (default 20); `total` counts them all.'),
      },
      result: [SearchResultSchema],
      annotations: READ,
    },
    async ({ query, ledger, type, limit }) => {
      if (ledger !== undefined) await requireViewer(ctx, ledger);
      try {
        return await searchCanvases(ctx.ws, { query, ledger, types: type, limit, who: ctx.who });
      } catch (e) {
        // The store's words for an empty query name the command line; an MCP caller passes `query`.
        if (e instanceof CanvasError && e.code === 'USAGE') throw new CanvasError('USAGE', e.message, 'pass the words to find as `query`, for example "idle timeout"', e.data);
        throw e;
      }
    },
  );
}
