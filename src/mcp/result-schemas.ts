/**
 * The output schemas of the MCP tools (docs/mcp.md, "Results"): what each tool's structured
 * content may be. Each is `{"type":"object","anyOf":[...]}`: one branch per shape a result takes
 * and the error shape, so every answer, success or refusal, validates.
 *
 * Said once, to keep the listing small (docs/mcp.md, "The budget"): every object of a result
 * names the keys it always has in `required`, types its keys that are not strings in
 * `properties`, and types every other key as a string (`additionalProperties`); a shape used
 * twice in one schema (a diff, a node's state) is said once in its `$defs`; an error code is a
 * string, whose list is docs/errors.md.
 */
import { NODE_TYPES } from '../model/types.js';
import { arr, bool, count, int, type Json, oneOf, ref, strOrNull } from './json-schema.js';

const STRING: Json = { type: 'string' };

/**
 * An object whose keys are `required` (and `optional`), typed by `typed` where they are not
 * strings, every other key a string.
 */
function rec(required: readonly string[], typed: Record<string, Json> = {}): Json {
  return { type: 'object', ...(Object.keys(typed).length > 0 ? { properties: typed } : {}), additionalProperties: STRING, ...(required.length > 0 ? { required } : {}) };
}

/** An object whose values are all described elsewhere (docs): named, not spelled out. */
const OBJECT: Json = { type: 'object' };
const OBJECT_OR_NULL: Json = { type: ['object', 'null'] };

/**
 * Every refusal that is not an outcome: no role, a read refused (docs/mcp.md, "Results"). Its
 * keys are named; the instructions say it once, in every tool's stead.
 */
const ERROR = { required: ['error'], properties: { error: { required: ['code', 'message', 'hint'] } } };

/** The output schema of these branches and the error shape, with the shared shapes they use. */
function output(branches: readonly Json[], defs?: Record<string, Json>): Json {
  return { type: 'object', anyOf: [...branches, ERROR], ...(defs ? { $defs: defs } : {}) };
}

/** A branch of a result: its keys, the typed ones, and every other key a string. */
const branch = (required: readonly string[], typed: Record<string, Json> = {}): Json => {
  const { type: _, ...rest } = rec(required, typed);
  return rest;
};

const is = (value: string): Json => ({ const: value });

/** A node's state on one side of a change (docs/diff.md): null when it is absent there. */
const STATE: Json = { type: ['object', 'null'], required: ['type', 'v', 'parent', 'xml'] };

/** One node's change since a base (docs/diff.md): the keys beside `commits`. */
const CHANGE = { change: oneOf('inserted', 'removed', 'replaced', 'moved'), before: ref('state'), after: ref('state') };

/** One commit, named by its keys: full sha, op, node (null for none), author, reason, ISO date. */
const EDIT: Json = { type: 'object', required: ['commit', 'op', 'node', 'author', 'reason', 'date'] };

/** The diff of an outcome: one entry per node, with the commits that named it (docs/diff.md). */
const DIFF = arr(rec(['node', 'change', 'before', 'after', 'commits'], { ...CHANGE, commits: arr(EDIT) }));

const REJECTED = branch(['outcome', 'code', 'reason', 'hint'], { outcome: is('rejected'), data: OBJECT });

/**
 * The outcome schema of a write tool (docs/mcp.md, "The four outcomes").
 *
 * @param kinds - which outcomes the tool can answer beside `applied` and `rejected`
 * @param extra - keys an applied outcome of this tool may carry, typed
 */
function outcomes(kinds: { proposed?: true; conflict?: true }, extra: Record<string, Json> = {}): Json {
  const diffs = kinds.conflict === true;
  const diff = diffs ? ref('diff') : arr();
  const branches = [branch(['outcome', 'revision', 'node', 'diff'], { outcome: is('applied'), node: strOrNull, diff, replayed: bool, ...extra }), REJECTED];
  if (kinds.proposed) branches.push(branch(['outcome', 'proposalId', 'revision'], { outcome: is('proposed'), replayed: bool }));
  if (diffs) branches.push(branch(['outcome', 'code', 'node', 'expectedRevision', 'currentRevision', 'diff'], { outcome: is('conflict'), node: strOrNull, diff }));
  return output(branches, diffs ? { diff: DIFF, state: STATE } : undefined);
}

/** A node edit: any of the four outcomes. */
export const EDIT_OUTCOME = outcomes({ proposed: true, conflict: true });
/** Approving a proposal: applied, a conflict when its node moved since its base, or rejected. */
export const APPROVE_OUTCOME = outcomes({ conflict: true });
/** A write that names no node against a base: applied or rejected. */
export const PLAIN_OUTCOME = outcomes({});
/** canvas_open and canvas_import: applied with the ids of the nodes written (and what an import flattened). */
export const CREATE_OUTCOME = outcomes({}, { nodes: arr(), flattened: arr() });
/** canvas_freeze: applied, with the done artifact of the frozen revision when asked. */
export const FREEZE_OUTCOME = outcomes({}, { done: OBJECT });

/** canvas_read: the document, the filtered nodes, a projection, or the done artifact. */
export const READ_RESULT = output([
  branch(['ledger', 'revision', 'xml']),
  branch(['ledger', 'revision', 'nodes'], { nodes: arr(rec(['id', 'type', 'v', 'parent', 'xml'], { type: oneOf(...NODE_TYPES), v: int })) }),
  branch(['ledger', 'revision', 'format', 'content'], { format: oneOf('text', 'html', 'comment') }),
  branch(['ledger', 'revision', 'format', 'done'], { format: is('done'), done: OBJECT }),
]);

/** canvas_history: the commits that named a node (with an approved proposal's proposer), or the canvas's. */
export const HISTORY_RESULT = output([branch(['ledger', 'commits'], { commits: arr(EDIT) })]);

/** canvas_list_proposals: the proposal files, open first (docs/mcp.md, "The tools"). */
export const PROPOSALS_RESULT = output([
  branch(['ledger', 'proposals'], {
    proposals: arr({ type: 'object', properties: { status: oneOf('open', 'approved', 'rejected'), node: strOrNull }, required: ['id', 'status', 'op', 'node', 'why', 'proposedBy', 'base'] }),
  }),
]);

/** canvas_list: each canvas the caller holds a role on (or why it could not be read), by ledger id. */
export const LIST_RESULT = output([
  branch(['canvases'], {
    canvases: arr({
      type: 'object',
      properties: { role: strOrNull, summary: OBJECT_OR_NULL, questions: OBJECT, lastEdit: OBJECT, ending: OBJECT_OR_NULL, writtenByRun: bool, watchers: arr(), error: OBJECT },
      required: ['ledger', 'revision', 'role'],
    }),
  }),
]);

/** canvas_search: the hits, best first, and what was searched (docs/search.md). */
export const SEARCH_RESULT = output([
  branch(['query', 'terms', 'total', 'hits', 'canvases', 'indexed', 'failures'], {
    terms: arr(),
    total: count,
    hits: arr(rec(['ledger', 'node', 'type', 'revision', 'phrase', 'score', 'snippet', 'marks'], { phrase: bool, score: { type: 'number' }, marks: arr() })),
    canvases: count,
    indexed: count,
    failures: arr(),
  }),
]);

/** canvas_edges: links out and in, actors and watchers (docs/links.md, "Edges"). */
export const EDGES_RESULT = output([
  branch(['ledger', 'revision', 'linksTo', 'linkedFrom', 'actors', 'watchers'], {
    linksTo: arr({ type: 'object', required: ['node', 'href', 'label', 'kind'] }),
    linkedFrom: arr({ type: 'object', required: ['ledger', 'node', 'href', 'label'] }),
    actors: arr({ type: 'object', required: ['who', 'acts', 'last'] }),
    watchers: arr({ type: 'object', required: ['who', 'since'] }),
  }),
]);

/** canvas_verify: the replay's report (docs/store.md, "Verify"). */
export const VERIFY_RESULT = output([
  branch(['ok', 'commits', 'canvases', 'violations', 'repaired', 'unrepaired', 'warnings'], {
    ok: bool,
    commits: count,
    canvases: count,
    violations: arr({ type: 'object', required: ['rule', 'message'] }),
    repaired: arr(),
    unrepaired: arr(),
    warnings: arr(),
  }),
]);

/** canvas_watch and canvas_unwatch: whether the caller watches the canvas now. */
export const WATCH_RESULT = output([branch(['ledger', 'watching', 'changed', 'since', 'cursor'], { watching: bool, changed: bool, since: strOrNull, cursor: strOrNull })]);

/** canvas_inbox: the events, the proposals waiting, each followed canvas, the cursors moved. */
export const INBOX_RESULT = output(
  [
    branch(['events', 'waiting', 'canvases', 'acked'], {
      events: arr({ type: 'object', properties: { diff: { type: ['object', 'null'], properties: CHANGE } }, required: ['ledger', 'commit', 'op', 'node', 'author', 'reason', 'date', 'diff'] }),
      waiting: arr({ type: 'object', required: ['ledger', 'id', 'op', 'node', 'proposedBy', 'base'] }),
      canvases: arr(rec(['ledger', 'cursor', 'revision', 'events', 'cursorLost'], { cursor: strOrNull, events: count, cursorLost: bool })),
      acked: arr(),
    }),
  ],
  { state: STATE },
);

/** canvas_check: the report (docs/coherence.md, "The report"). */
export const CHECK_RESULT = output([
  branch(['ledger', 'revision', 'model', 'dryRun', 'findings', 'skipped'], {
    dryRun: bool,
    asked: bool,
    structured: bool,
    attempts: count,
    usage: OBJECT,
    findings: arr({ type: 'object', required: ['nodes', 'question', 'status'] }),
    skipped: arr(),
  }),
]);

/** Every outcome schema, to tell a write tool's results from a read's. */
export const OUTCOME_SCHEMAS: ReadonlySet<Json> = new Set([EDIT_OUTCOME, APPROVE_OUTCOME, PLAIN_OUTCOME, CREATE_OUTCOME, FREEZE_OUTCOME]);
