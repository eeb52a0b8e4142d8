/**
 * The writing discipline every write tool's description carries (docs/projections.md "The prompt",
 * docs/mcp.md): read first, write against the sha, one node per call, a reason that says why, never
 * quietly answer an open question, and check the outcome explicitly.
 */
export const DISCIPLINE = [
  'Discipline: read first (canvas_read) and pass its Canvas-Base: sha as `base`; change one node per call;',
  'give a `why`: one plain line that says why the change is made;',
  'never quietly answer an open <question>: settle it only in its own edit that says so in `why`, and raise a question rather than guess.',
  'Check `outcome` explicitly, never just "no error": `applied` {revision, node, diff} went through (diff lists what else changed since your base);',
  '`proposed` {proposalId} is pending, because you are a commenter: an editor or owner approves or rejects it;',
  '`conflict` {expectedRevision, currentRevision, diff} is NOT success and nothing was written: read again, decide again, and write against the new sha (never resend the same write with the sha bumped);',
  '`rejected` {code, reason, hint} was refused and nothing was written: fix what `hint` says.',
  'If you hold no role on the canvas the result is {"error":{"code":"NO_ROLE",...}}: ask an owner for a grant.',
].join(' ');
