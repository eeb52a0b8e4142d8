// What the server of `canvas serve` sends the tab and takes from it (docs/serve.md): the JSON of
// its routes, typed here because the tab reads it as JSON, not as the store's objects.
import type { CanvasNode, FigureKind, NodeType } from '../../model/types.js';

/** One commit between two revisions, as `/_since` and a diff entry list it. */
export interface WireCommit {
  commit: string;
  op: string;
  node?: string | null;
  author: string;
  reason: string;
}

/** A node at one side of a change: its version, its parent's id (or `root`) and its XML. */
interface WireNodeState {
  v: number;
  parent: string;
  xml: string;
}

/** One node's change (docs/diff.md), with the commits that made it. */
export interface WireDiffEntry {
  node: string;
  change: string;
  before: WireNodeState | null;
  after: WireNodeState | null;
  commits?: WireCommit[];
}

/** What changed in a canvas since a revision: `GET /<ledger>/_since?base=`. */
export interface WireChanges {
  base: string;
  commits: WireCommit[];
  diff: WireDiffEntry[];
}

/** A pending proposal an editor may decide. */
export interface WireProposal {
  id: string;
  op: string;
  node?: string | null;
  proposedBy: string;
  why: string;
  payload?: string | null;
}

/** The page's session: `GET /<ledger>/_session`. `reason` is the store's rule for a reason. */
export interface WireSession {
  ledger: string;
  revision: string;
  author: string | null;
  role: 'viewer' | 'commenter' | 'editor' | 'owner' | null;
  proposals: WireProposal[];
  reason: { pattern: string; flags: string; max: number };
}

/** The server's sync with a shared remote (the `remote` event). */
export interface WireRemote {
  url?: string;
  error?: string | null;
  synced?: string | number | null;
}

/** A node as a form starts from it: the tree's node, an svg figure with its markup as `svgSource`. */
export type FormNode = CanvasNode & { svgSource?: string };

/** The tree a form starts from: `GET /<ledger>/_canvas?at=`. */
export interface WireTree {
  revision: string;
  canvas: { children: FormNode[] };
}

/** The node a form sends: the payload of one node, by type. */
export type NodeBody =
  | { type: 'text'; text: string }
  | { type: 'question'; text: string; answered: boolean }
  | { type: 'section'; title: string }
  | { type: 'list'; items: string[]; ordered: boolean }
  | { type: 'table'; rows: string[][] }
  | { type: 'link'; href: string; label: string }
  | { type: 'figure'; kind: FigureKind | string; caption: string | undefined; source: string };

/** A refusal that is not an outcome: `{error: {code, message, hint}}`. */
interface WireError {
  outcome?: undefined;
  revision?: undefined;
  error?: { code: string; message: string; hint: string };
}

/** The answer to a write or a decision: one of the four outcomes, or an error. */
export type WireOutcome =
  | { outcome: 'applied'; revision: string; node?: string | null; diff?: WireDiffEntry[] }
  | { outcome: 'proposed'; proposalId: string; revision?: string }
  | { outcome: 'conflict'; node?: string | null; expectedRevision: string; diff?: WireDiffEntry[]; revision?: undefined }
  | { outcome: 'rejected'; code: string; reason: string; hint?: string; revision?: undefined }
  | WireError;

/** What the form sends to `POST /<ledger>/_write`. */
export interface WriteBody {
  op: 'insert' | 'replace' | 'remove' | 'move';
  base: string;
  why: string;
  id?: string;
  node?: NodeBody | null;
  after?: string;
  into?: string;
}

/** The node types, for the insert menus, in the order the menus list them. */
export const INSERT_TYPES: readonly NodeType[] = ['text', 'question', 'section', 'list', 'table', 'link', 'figure'];

/** GET a JSON route of this server; a refusal throws with the server's message. */
export async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = (await r.json()) as T & { error?: { message?: string } };
  if (!r.ok) throw Object.assign(new Error(body.error?.message ?? r.statusText), { body });
  return body;
}

/** POST JSON to a route of this server and return its answer. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const r = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  return (await r.json()) as T;
}
