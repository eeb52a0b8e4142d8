import type { McpServer } from '@modelcontextprotocol/server';
import { insertNode, moveNode, removeNode, replaceNode } from '../store/node-writes.js';
import { approveProposal, rejectProposal } from '../store/proposals.js';
import { authorOfCall } from './author-of-call.js';
import { DISCIPLINE } from './discipline.js';
import { type CanvasToolAnnotations, registerCanvasTool } from './register-canvas-tool.js';
import type { ServerContext } from './server-context.js';
import { WRITE } from './tool-annotations.js';
import { afterArg, editArgs, intoArg, nodeArg, payloadArgs, proposalIdArg, writeArgs } from './tool-arguments.js';
import { payloadOfArgs } from './payload-of-args.js';

const RESULT =
  'Result: the outcome as structured content and as JSON text, isError false: {"outcome":"applied"|"proposed"|"conflict"|"rejected",...}.';

interface CommonArgs {
  ledger: string;
  why: string;
  idempotencyKey?: string | undefined;
  step?: string | undefined;
  run?: string | undefined;
}

/**
 * Register the write tools: canvas_insert, canvas_replace, canvas_remove, canvas_move,
 * canvas_approve_proposal and canvas_reject_proposal (docs/mcp.md "The tools"). Each
 * checks the workspace, then calls one store function as the server's identity; the store gates
 * the role (a commenter's edit becomes a proposal, a viewer's is rejected, no grant is NO_ROLE).
 *
 * @param server - the MCP server
 * @param ctx - the workspace served and the identity
 */
export function registerWriteTools(server: McpServer, ctx: ServerContext): void {
  /** What every write hands the store (the workspace is checked before). */
  const common = (a: CommonArgs) => ({ ledger: a.ledger, why: a.why, author: authorOfCall(ctx.who, a.step, a.run), idempotencyKey: a.idempotencyKey });

  registerCanvasTool(
    server,
    ctx,
    'canvas_insert',
    {
      title: 'Insert one node',
      description: [
        'Insert ONE new node, after a sibling (`after`) or first inside a section or the root (`into`). The store mints its id: an applied outcome returns it as `node`.',
        'The payload is exactly one of `xml`, `text`, `question`, `section`; a section is born empty (insert its children one call at a time).',
        RESULT,
        DISCIPLINE,
      ].join(' '),
      args: { ...editArgs, after: afterArg, into: intoArg, ...payloadArgs },
      result: 'outcome',
      // The same insert again inserts a second node.
      annotations: { ...WRITE, idempotentHint: false },
    },
    async (a) => insertNode(ctx.ws, { ...common(a), base: a.base, require: a.require, after: a.after, into: a.into, payload: payloadOfArgs(a) }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_replace',
    {
      title: "Replace one node's content",
      description: [
        "Replace ONE node's content: same id and place, v+1; the type may change (an options table becoming a text is how a decision settles).",
        'A section takes an empty <section title="..."/> (the title changes, the children stay). A replace that changes nothing is rejected (NO_CHANGE).',
        'The payload is exactly one of `xml`, `text`, `question`, `section`.',
        RESULT,
        DISCIPLINE,
      ].join(' '),
      args: { ...editArgs, node: nodeArg, ...payloadArgs },
      result: 'outcome',
      // A replace overwrites the node's content (its earlier versions stay in the history).
      annotations: { ...WRITE, destructiveHint: true },
    },
    async (a) => replaceNode(ctx.ws, { ...common(a), base: a.base, require: a.require, node: a.node, payload: payloadOfArgs(a) }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_remove',
    {
      title: 'Remove one node',
      description: [
        'Remove ONE node. A section must be empty first: a section with children is rejected (HAS_CHILDREN), naming them. Nothing is lost from the record: history keeps every version.',
        RESULT,
        DISCIPLINE,
      ].join(' '),
      args: { ...editArgs, node: nodeArg },
      result: 'outcome',
      annotations: { ...WRITE, destructiveHint: true },
    },
    async (a) => removeNode(ctx.ws, { ...common(a), base: a.base, require: a.require, node: a.node }),
  );

  registerCanvasTool(
    server,
    ctx,
    'canvas_move',
    {
      title: 'Move one node',
      description: [
        'Move ONE node (a section travels with its whole subtree) after a sibling (`after`) or first inside a section or the root (`into`): same content, v+1.',
        'Never into its own subtree; a section may hold a section, never deeper. Say in `why` why it belongs in its new place.',
        RESULT,
        DISCIPLINE,
      ].join(' '),
      args: { ...editArgs, node: nodeArg, after: afterArg, into: intoArg },
      result: 'outcome',
      annotations: WRITE,
    },
    async (a) => moveNode(ctx.ws, { ...common(a), base: a.base, require: a.require, node: a.node, after: a.after, into: a.into }),
  );

  /** The two decisions on an open proposal: the same arguments, one store call each. */
  const decision = (name: string, title: string, description: string[], decide: typeof approveProposal, annotations: CanvasToolAnnotations) =>
    registerCanvasTool(
      server,
      ctx,
      name,
      { title, description: [...description, RESULT].join(' '), args: { ...writeArgs, proposalId: proposalIdArg }, result: 'outcome', annotations },
      async (a) => decide(ctx.ws, { ...common(a), proposal: a.proposalId }),
    );

  decision(
    'canvas_approve_proposal',
    'Approve a proposal',
    [
      'Approve an open proposal (editor or owner): it is replayed through the same write path against the proposal\'s own base, authored by you,',
      'and the record keeps the proposer and you as two identities. If its node changed since that base the outcome is `conflict` and the proposal stays open',
      '(reject it, or ask for a new proposal). A proposal is decided once: again is rejected (PROPOSAL_DECIDED). `why` says why you approve.',
    ],
    approveProposal,
    // Approving replays the proposed edit, which may be a replace or a remove.
    { ...WRITE, destructiveHint: true },
  );
  decision(
    'canvas_reject_proposal',
    'Reject a proposal',
    [
      'Reject an open proposal (editor or owner), once: the canvas does not change; the proposal is marked rejected with you and your `why`.',
      'The outcome is `applied` with `node` null (the decision was recorded), or `rejected`.',
    ],
    rejectProposal,
    WRITE,
  );
}
