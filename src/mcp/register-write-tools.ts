import type { McpServer } from '@modelcontextprotocol/server';
import { approveProposal, insertNode, moveNode, rejectProposal, removeNode, replaceNode } from '../store/index.js';
import { authorOfCall } from './author-of-call.js';
import { str } from './json-schema.js';
import { type PayloadArgs, payloadOfArgs } from './payload-of-args.js';
import { registerCanvasTool } from './register-canvas-tool.js';
import { APPROVE_OUTCOME, EDIT_OUTCOME, PLAIN_OUTCOME } from './result-schemas.js';
import type { ServerContext } from './server-context.js';
import { ADDS, OVERWRITES, WRITE } from './tool-annotations.js';
import { ANCHOR, EDIT, PAYLOAD, WRITE as WRITE_ARGS, WRITE_REQUIRED } from './tool-arguments.js';

/** What every write takes. */
interface CommonArgs {
  ledger: string;
  why: string;
  idempotencyKey?: string;
  step?: string;
  run?: string;
}

/** What every node edit adds. */
interface EditArgs extends CommonArgs {
  base?: string;
  require?: string;
}

/**
 * Register the write tools: canvas_insert, canvas_replace, canvas_remove, canvas_move,
 * canvas_approve_proposal and canvas_reject_proposal (docs/mcp.md "The tools"). Each checks the
 * workspace, then calls one store function as the server's identity; the store gates the role (a
 * commenter's edit becomes a proposal, a viewer's is rejected, no grant is NO_ROLE).
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerWriteTools(server: McpServer, ctx: ServerContext): void {
  /** What every write hands the store (the workspace is checked before). */
  const common = (a: CommonArgs) => ({ ledger: a.ledger, why: a.why, author: authorOfCall(ctx.who, a.step, a.run), idempotencyKey: a.idempotencyKey });
  const edit = (a: EditArgs) => ({ ...common(a), base: a.base, require: a.require });

  registerCanvasTool(
    server,
    ctx,
    'canvas_insert',
    {
      description:
        'Insert one node after a sibling (`after`) or first inside a section or root (`into`). Payload, exactly one: xml (one element without id and v, e.g. <list><item>a</item></list>; a figure is <figure kind="diagram|mermaid|svg|excalidraw">), text, question (answered: true if it is settled), section (a title; born empty). The outcome\'s node is the new id.',
      args: { properties: { ...EDIT, ...ANCHOR, ...PAYLOAD }, required: WRITE_REQUIRED },
      result: EDIT_OUTCOME,
      // The same insert again inserts a second node.
      annotations: ADDS,
    },
    async (a: EditArgs & PayloadArgs & { after?: string; into?: string }) => insertNode(ctx.ws, { ...edit(a), after: a.after, into: a.into, payload: payloadOfArgs(a) }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_replace',
    {
      description: "Replace one node's content: same id and place, v+1; the type may change. A section takes `section` (its title) and keeps its children. Payload as canvas_insert.",
      args: { properties: { ...EDIT, node: str, ...PAYLOAD }, required: [...WRITE_REQUIRED, 'node'] },
      result: EDIT_OUTCOME,
      annotations: OVERWRITES,
    },
    async (a: EditArgs & PayloadArgs & { node: string }) => replaceNode(ctx.ws, { ...edit(a), node: a.node, payload: payloadOfArgs(a) }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_remove',
    {
      description: 'Remove one node; a section must be empty first.',
      args: { properties: { ...EDIT, node: str }, required: [...WRITE_REQUIRED, 'node'] },
      result: EDIT_OUTCOME,
      annotations: OVERWRITES,
    },
    async (a: EditArgs & { node: string }) => removeNode(ctx.ws, { ...edit(a), node: a.node }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_move',
    {
      description: 'Move one node (a section with its subtree) after `after` or first into `into`; say in why why it belongs there.',
      args: { properties: { ...EDIT, node: str, ...ANCHOR }, required: [...WRITE_REQUIRED, 'node'] },
      result: EDIT_OUTCOME,
      annotations: WRITE,
    },
    async (a: EditArgs & { node: string; after?: string; into?: string }) => moveNode(ctx.ws, { ...edit(a), node: a.node, after: a.after, into: a.into }),
  );

  const decision = { properties: { ...WRITE_ARGS, proposalId: str }, required: [...WRITE_REQUIRED, 'proposalId'] };
  registerCanvasTool(
    server,
    ctx,
    'canvas_approve_proposal',
    {
      description: 'Apply an open proposal (editor or owner): its edit is replayed against its own base, authored by you; a conflict leaves it open.',
      args: decision,
      result: APPROVE_OUTCOME,
      // Approving replays the proposed edit, which may be a replace or a remove.
      annotations: OVERWRITES,
    },
    async (a: CommonArgs & { proposalId: string }) => approveProposal(ctx.ws, { ...common(a), proposal: a.proposalId }),
  );
  registerCanvasTool(
    server,
    ctx,
    'canvas_reject_proposal',
    {
      description: 'Decline an open proposal (editor or owner); the canvas does not change.',
      args: decision,
      result: PLAIN_OUTCOME,
      annotations: WRITE,
    },
    async (a: CommonArgs & { proposalId: string }) => rejectProposal(ctx.ws, { ...common(a), proposal: a.proposalId }),
  );
}
