import type { Anchor } from '../../model/edit-tree.js';
import type { Author } from '../../model/parse-author.js';
import { type PayloadInput, payloadFromInput } from '../../model/payload-from-input.js';
import { payloadFromTree } from '../../model/payload-from-tree.js';
import { checkNodeSize } from '../../model/size-limits.js';
import type { Canvas, NodePayload } from '../../model/types.js';
import type { CanvasFacts } from '../repo/canvas-facts.js';
import type { RefUpdater } from '../git/ref-updater.js';
import type { RemoteSession } from '../remote/push-write.js';
import type { RepoReader } from '../repo/repo-reader.js';
import type { Workspace } from '../repo/workspace.js';

/** An edit as a caller gives it: the payload may still be an XML fragment or sugar. */
export type EditInput =
  | { op: 'create' }
  | { op: 'freeze' | 'abandon' }
  | { op: 'insert'; payload: NodePayload | PayloadInput; anchor: Anchor }
  | { op: 'replace'; node: string; payload: NodePayload | PayloadInput }
  | { op: 'remove'; node: string }
  | { op: 'move'; node: string; anchor: Anchor };

/** The edit a write performs on the canvas document, its payload a tree. */
export type EditSpec =
  | { op: 'create' }
  | { op: 'freeze' | 'abandon' }
  | { op: 'insert'; payload: NodePayload; anchor: Anchor }
  | { op: 'replace'; node: string; payload: NodePayload }
  | { op: 'remove'; node: string }
  | { op: 'move'; node: string; anchor: Anchor };

/** What every write carries besides its edit (docs/store.md "Writes"). */
export interface WriteCommon {
  /** The ledger id. */
  ledger: string;
  /** The reason: one line, required. */
  why: string;
  /** The author: `who[ | step:S][ | run:R]` or `who | by-hand`. */
  author: string;
  /** The revision the writer decided against: a revision of this canvas, 7+ hex characters (docs/store.md, "Staleness"). */
  base?: string | undefined;
  /** Strict: refuse if anything in this canvas changed since this revision of it (implies base). */
  require?: string | undefined;
  /** Scoped to the canvas and the who: a retry returns the original outcome. */
  idempotencyKey?: string | undefined;
}

/** What an approval's check under the lock finds: the proposal file's new content (decided) and the proposer. */
export interface Approved {
  file: string;
  content: string;
  proposedBy: string;
  proposedWhy: string;
}

/** An approval replaying a proposal through the write path (docs/roles.md "Proposals"). */
interface ApprovalHook {
  /** The proposal id. */
  proposal: string;
  /** Called under the lock with the current revision: checks the proposal is still open. */
  decide: (ctx: EditContext) => Promise<Approved>;
}

/** Extensions of the write path. */
export interface EditHooks {
  approval?: ApprovalHook;
}

/** The state a write sees under the lock. */
export interface EditContext {
  ws: Workspace;
  reader: RepoReader;
  ledger: string;
  author: Author;
  why: string;
  main: string | null;
  revision: string | null;
  facts: CanvasFacts | null;
  canvas: Canvas | null;
  request: string;
  base: string | null;
  common: WriteCommon;
  /** The repository's `git update-ref --stdin`, started with the lock if it was not running. */
  refs: RefUpdater;
  /** The shared remote the write is pushed to before the local refs move, or null (docs/remote.md, "Writes"). */
  remote: RemoteSession | null;
}

/**
 * What a write under the lock does, and so whether it touches the canvas document (docs/store.md
 * "Writes"): `edit` is one of the document's own operations, which {@link applyEdit} performs
 * (create, freeze, and the node edits); `files` changes only files beside the document
 * (`access/<ledger>.json` for grant and revoke, `proposals/<ledger>/<id>.json` for reject), and its
 * commit leaves the document as it is.
 */
type WriteOperation = { touches: 'document'; edit: EditSpec } | { touches: 'files'; op: 'grant' | 'revoke' | 'reject'; other?: string | undefined };

/** What {@link runLocked} needs to set up a write. */
export interface PreparedWrite {
  ledger: string;
  why: string;
  author: Author;
  operation: WriteOperation;
  request: string;
  common: WriteCommon;
}

/**
 * The edit with its payload as a tree: an XML fragment or sugar is parsed, and a payload given as a
 * tree is checked as strictly as the same node given as XML (docs/library.md, "Payload
 * objects") and held to the node limit too (docs/canonical.md "Size limits").
 *
 * @throws CanvasError `XML_PARSE`, `SCHEMA`, `PAYLOAD_HAS_ID`, `PAYLOAD_CHILDREN`, `TOO_LARGE`, ... for a bad payload
 */
export function toSpec(input: EditInput): EditSpec {
  if (!('payload' in input)) return input;
  const p = input.payload;
  const given = p !== null && typeof p === 'object' && 'type' in p;
  const payload = given ? payloadFromTree(p) : payloadFromInput(p as PayloadInput);
  if (given) checkNodeSize(payload);
  return { ...input, payload } as EditSpec;
}
