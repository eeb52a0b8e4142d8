/**
 * The arguments of the MCP tools (docs/mcp.md, "The tools"), named as on the command line
 * (docs/cli.md): `ledger`, `node`, `after`, `into`, `xml`/`text`/`question`/`section`, `base`,
 * `require`, `why`, `idempotencyKey`, `proposalId`; `workspace` on every tool. What they all mean
 * is said once, in the server's instructions (instructions.ts); a tool's description says what is
 * its own.
 *
 * Deliberately loose where the store owns the rule: `why` is any string, so a reason with a line
 * break or a control character reaches the store and comes back as the `rejected` outcome
 * (`BAD_REASON`), never as a schema error and never stripped (docs/store.md "Writes"). The
 * ledger id, node ids, shas and the idempotency key's form are checked by the store the same way.
 */
import { NODE_TYPES } from '../model/types.js';
import { arr, bool, type Json, oneOf, str } from './json-schema.js';

/** A tool's arguments beside `workspace`, and which of them it requires. */
export interface ToolArgs {
  properties: Record<string, Json>;
  required: readonly string[];
}

/** Node types, as `canvas read --type` takes them. */
export const NODE_TYPE_LIST = arr(oneOf(...NODE_TYPES));

/** What every write takes beside `workspace`. */
export const WRITE = { ledger: str, why: str, idempotencyKey: str, step: str, run: str };

/** What every node edit adds to a write. */
export const EDIT = { ...WRITE, base: str, require: str };

/** The payload of insert and replace: exactly one of the four (and `answered` with `question`). */
export const PAYLOAD = { xml: str, text: str, question: str, answered: bool, section: str };

/** Where an insert or move puts its node. */
export const ANCHOR = { after: str, into: str };

/** The required arguments of a write. */
export const WRITE_REQUIRED = ['ledger', 'why'] as const;

/** The role a grant gives. */
export const roleArg = oneOf('viewer', 'commenter', 'editor', 'owner');
