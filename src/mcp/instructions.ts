/**
 * The server's instructions (docs/mcp.md, "The budget"): what every tool shares, said once in
 * the handshake instead of in every tool's description. The writing discipline (docs/projections.md
 * "The prompt"): read first, write against the revision, one node per call, a reason that says
 * why, never quietly answer an open question, and check the outcome; the arguments every tool or
 * every write takes; the four outcomes and the error shape; how to hear of changes.
 *
 * @param who - the server's identity
 * @returns the instructions, a few lines
 */
export function instructionsFor(who: string): string {
  return [
    `Canvases: one XML document per task, edited one node at a time; every edit is one commit with a reason. You act as "${who}"; a canvas's owner grants roles (viewer < commenter < editor < owner) with canvas_grant; there is no default role.`,
    'Every call takes `workspace`: the absolute path of the workspace you were given (any other is refused).',
    'Read first (canvas_read) and pass its `revision` as `base`; one node per call; `why` is one plain line that says why; never quietly answer an open <question>: settle it in its own edit that says so, and raise a question rather than guess.',
    'A write returns `outcome`: applied {revision, node, diff: what else changed since base}; proposed {proposalId}: you are a commenter, an editor decides; conflict {expectedRevision, currentRevision, diff}: nothing written and not success: read again, decide again; rejected {code, reason, hint}: nothing written, do what hint says. Other refusals are {error: {code, message, hint}}; docs/errors.md lists the codes.',
    '`require`: a conflict if anything changed since that revision. `idempotencyKey`: a retry with the same key returns the first outcome (replayed: true). `step`, `run`: recorded in the author.',
    'Hear of changes with canvas_inbox, or follow the resource canvas://<ledger>.',
  ].join('\n');
}
