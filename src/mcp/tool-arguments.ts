/**
 * The arguments of the MCP tools (docs/mcp.md), named as on the command line (docs/cli.md):
 * `workspace`, `ledger`, `node`, `after`, `into`, `xml`/`text`/`question`/`section`, `base`,
 * `require`, `why`, `idempotencyKey`, `proposalId`. Each carries the description a client shows.
 *
 * Deliberately loose where the store owns the rule: `why` is any string, so a reason with a line
 * break or a control character reaches the store and comes back as the `rejected` outcome
 * (`BAD_REASON`), never as a schema error and never stripped (docs/store.md "Writes"). The
 * ledger id, node ids, shas and the idempotency key's form are checked by the store the same way.
 */
import { z } from 'zod';

/** Every tool: the workspace the caller believes it works in (workspace scoping). */
export const workspaceArg = z
  .string()
  .describe(
    'The absolute path of the workspace you were told you work in. It must be the workspace this server serves (compared as real paths); any other is refused with WORKSPACE_MISMATCH and nothing is read or written.',
  );

/** Every tool: the ledger id naming the canvas. */
export const ledgerArg = z.string().describe('The ledger id of the canvas (^[a-z0-9][a-z0-9._-]{0,63}$), for example "ship-the-flag".');

/** The node a tool reads or writes. */
export const nodeArg = z.string().describe('The id of the one node this call is about, as printed by canvas_read (for example "b7").');

/** Where an insert or move puts its node: a sibling. */
export const afterArg = z
  .string()
  .optional()
  .describe('Place the node right after this sibling node id. Give exactly one of `after` and `into`.');

/** Where an insert or move puts its node: first child of a section or of the root. */
export const intoArg = z
  .string()
  .optional()
  .describe('Place the node first inside this section id, or "root" for the top level. Give exactly one of `after` and `into`.');

/** The payload as one XML fragment. */
const xmlArg = z
  .string()
  .optional()
  .describe(
    'The node as one XML fragment without id and v, for example <text>We ship on Friday.</text>, <list><item>a</item><item>b</item></list>, <question>Who owns it?</question>. A figure is <figure kind="diagram|mermaid|svg|excalidraw">: an Excalidraw scene is its .excalidraw file\'s JSON as the figure\'s text, escaped as XML (& as &amp;, < as &lt;). Give exactly one of `xml`, `text`, `question`, `section`.',
  );

/** Payload sugar: a text node. */
const textArg = z.string().optional().describe('Sugar for <text>…</text>: a paragraph, given verbatim (no XML escaping needed).');

/** Payload sugar: a question node. */
const questionArg = z
  .string()
  .optional()
  .describe('Sugar for <question>…</question>: raise an open question instead of guessing the answer. The question is open unless `answered` is true.');
/** With the question sugar: the question is answered (`answered="true"`). */
const answeredArg = z
  .boolean()
  .optional()
  .describe('Only with `question`: true marks it answered (answered="true"). Leave it out and the question is open, so replacing an answered question with `question` alone re-opens it.');

/** Payload sugar: an empty section. */
const sectionArg = z.string().optional().describe('Sugar for an empty <section title="…"/>: the section title (one line).');

/** The revision the write was decided against. */
const baseArg = z
  .string()
  .optional()
  .describe(
    'The Canvas-Base: sha printed by canvas_read (or the `revision` of your last applied write): the revision you decided against. Required for every node edit; without it the write is rejected with BASE_REQUIRED. If the node changed since, the outcome is `conflict`.',
  );

/** Strict staleness. */
const requireArg = z
  .string()
  .optional()
  .describe('Strict: a sha; refuse with `conflict` if anything in this canvas changed since it (implies `base`).');

/** The reason: one line, checked by the store. */
const whyArg = z
  .string()
  .describe(
    'The reason: one plain line that says WHY this change is made (not what it is), shown to people in the audit trail. Required. A reason that is empty or holds a line break, any control character or a bidirectional override or isolate is rejected (BAD_REASON), never cleaned up.',
  );

/** The idempotency key. */
const idempotencyKeyArg = z
  .string()
  .optional()
  .describe(
    'Optional retry token (^[A-Za-z0-9._:-]{1,128}$), scoped to this canvas and to you: a retry with the same key and the same request returns the first outcome and writes nothing; the same key with a different request is rejected (IDEMPOTENCY_MISMATCH).',
  );

/** The step part of the author. */
const stepArg = z
  .string()
  .optional()
  .describe('Optional: the workflow step you act in; recorded in the author as "<who> | step:<step>" (^[A-Za-z0-9][A-Za-z0-9._@:-]*$).');

/** The run part of the author. */
const runArg = z
  .string()
  .optional()
  .describe('Optional: the run you act in; recorded in the author as "<who>[ | step:<step>] | run:<run>" (^[A-Za-z0-9][A-Za-z0-9._@:-]*$).');

/** A proposal id. */
export const proposalIdArg = z.string().describe('The proposal id (10 hex characters), as returned by a `proposed` outcome or listed by canvas_list_proposals.');

/** What every write takes beside `workspace`. */
export const writeArgs = {
  ledger: ledgerArg,
  why: whyArg,
  idempotencyKey: idempotencyKeyArg,
  step: stepArg,
  run: runArg,
};

/** What every node edit adds to a write. */
export const editArgs = {
  ...writeArgs,
  base: baseArg,
  require: requireArg,
};

/** The payload of insert and replace: exactly one of the four. */
export const payloadArgs = {
  xml: xmlArg,
  text: textArg,
  question: questionArg,
  answered: answeredArg,
  section: sectionArg,
};
