// The MCP surface's token budget (docs/mcp.md, "The budget"), in o200k_base tokens, which are
// deterministic: the listing a host sends the model, under both protocol revisions, and a typical
// agent session against a 200-node canvas. `npm run bench -- --only mcp-tokens` prints the same
// figures beside the official reference servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEN_AUTHOR, generateWorkspace } from '../../bench/lib/generate-workspace.js';
import { runSession } from '../../bench/lib/mcp-session.js';
import { countListing, type ListedTool, tokensOf } from '../../bench/lib/mcp-tokens.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { connectAs, type McpSession, SDKS } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, tempWorkspace } from '../helpers/workspace.js';

describe('the budget of the MCP surface', () => {
  const sessions: Partial<Record<(typeof SDKS)[number], McpSession>> = {};
  const listings: Partial<Record<(typeof SDKS)[number], ListedTool[]>> = {};
  const prompts: Partial<Record<(typeof SDKS)[number], unknown[]>> = {};

  beforeAll(async () => {
    const ws = tempWorkspace('canvas-mcp-budget-');
    for (const sdk of SDKS) {
      const s = await connectAs(ws, 'agent', { sdk });
      sessions[sdk] = s;
      listings[sdk] = (await s.listTools()) as ListedTool[];
      prompts[sdk] = await s.listPrompts();
    }
  });

  afterAll(async () => {
    await Promise.all(Object.values(sessions).map((s) => s.close()));
  });

  it('lists the same tools and prompt under both revisions, in at most 4,000 model-visible tokens and 8,000 with the output schemas', () => {
    expect(listings.v2).toEqual(listings.v1);
    expect(prompts.v2).toEqual(prompts.v1);
    const c = countListing(listings.v1!, sessions.v1!.client.getInstructions());
    // The prompt's listing is part of the surface a host shows: a few dozen tokens.
    const p = tokensOf(prompts.v1!);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThanOrEqual(100);
    expect(c.instructions).toBeGreaterThan(0);
    expect(c.modelVisible + c.instructions + p).toBeLessThanOrEqual(4000);
    expect(c.withOutputSchemas + c.instructions + p).toBeLessThanOrEqual(8000);
  });

  it('a session (read 200 nodes, ten writes with a conflict and a proposal, an inbox) costs at most 1.3 times the read and the payloads, nothing sent twice', async () => {
    const generated = await generateWorkspace({ canvases: 0, commits: 201, minNodes: 30, maxNodes: 80, bigNodes: 200, bigCommits: 201, seed: 29 }, ROOT, undefined, tempDir('canvas-budget-cache-'));
    for (const who of ['agent', 'rival']) await grantRole(generated.ws, { ledger: 'big', who, role: 'editor', why: 'the session writes', author: GEN_AUTHOR });
    const agent = await connectAs(generated.ws, 'agent', { sdk: 'v2' });
    try {
      const s = await runSession((name, args) => agent.call(name, args).then((r) => ({ structuredContent: r.structured, content: [], isError: r.isError })), generated.ws, 'big', {
        owner: GEN_AUTHOR.split(' ')[0]!,
        rival: 'rival',
        agent: 'agent',
      });
      expect(s.outcomes).toEqual(['applied', 'applied', 'applied', 'applied', 'applied', 'applied', 'applied', 'applied', 'conflict', 'proposed']);
      expect(s.twice).toEqual([]);
      expect(s.canvasRead).toBeGreaterThan(6000);
      expect(s.ratio).toBeLessThanOrEqual(1.3);
    } finally {
      await agent.close();
    }
  });
});
