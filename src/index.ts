/**
 * The public surface of the canvas library's main entry (`task-canvas`). Every export is named
 * here (no `export *`); a test checks the sorted list, so growing the API is a visible decision.
 *
 * The entry is light (docs/library.md, "A light main entry"): importing it loads the error class
 * and the workspace resolver and nothing else. Each store function is loaded the first time it
 * is called; the heavier parts have entries of their own (`task-canvas/model`, `/render`,
 * `/site`, `/import`, `/publish`, `/check`, `/mcp`). A test refuses a static value export from
 * anywhere but the two light modules.
 */
import type * as AccessWrites from './store/write/access-writes.js';
import type * as CanvasEdges from './store/read/canvas-edges.js';
import type * as CanvasLifecycle from './store/write/canvas-lifecycle.js';
import type * as CanvasLog from './store/read/canvas-log.js';
import type * as ListCanvasEntries from './store/read/list-canvas-entries.js';
import type * as ListCanvases from './store/repo/list-canvases.js';
import type * as NodeHistory from './store/read/node-history.js';
import type * as NodeWrites from './store/write/node-writes.js';
import type * as ListProposals from './store/read/list-proposals.js';
import type * as Proposals from './store/write/decide-proposal.js';
import type * as ReadAccess from './store/read/read-access.js';
import type * as ReadCanvas from './store/read/read-canvas.js';
import type * as ReadSnapshot from './store/read/read-snapshot.js';
import type * as SearchCanvases from './store/search/search-canvases.js';
import type * as SetRemote from './store/remote/set-remote.js';
import type * as SyncWorkspace from './store/remote/sync-workspace.js';
import type * as VerifyWorkspace from './store/verify/verify-workspace.js';
import type * as AckInbox from './store/watch/ack-inbox.js';
import type * as ListWatchers from './store/watch/list-watchers.js';
import type * as ReadInbox from './store/read/read-inbox.js';
import type * as WatchCanvas from './store/watch/watch-canvas.js';

export { CanvasError, ERROR_CODES, type ErrorCode, type ErrorKind, exitCodeFor } from './model/canvas-error.js';
export type { NodeChange, NodeState } from './model/diff-canvases.js';
export type { PayloadInput } from './model/payload-from-input.js';
export type { Crossing, Ending, HistoryEntry, Snapshot, SnapshotEdit } from './model/snapshot.js';
export type {
  Canvas,
  CanvasNode,
  FigureKind,
  FigureNode,
  LinkNode,
  ListNode,
  NodePayload,
  NodeType,
  QuestionNode,
  SectionNode,
  TableNode,
  TextNode,
} from './model/types.js';
export type { AccessFile } from './store/repo/access-file.js';
export type { GrantRequest, RevokeRequest } from './store/write/access-writes.js';
export type { ProposalFile } from './store/repo/proposal-file.js';
export type { CanvasLinkTarget } from './model/canvas-link.js';
export type { LinkWarning } from './model/dangling-links.js';
export type { LinkOut } from './model/links-of.js';
export type { CanvasActor } from './store/read/canvas-actors.js';
export type { CanvasEdges, EdgeLinkIn, EdgeLinkOut } from './store/read/canvas-edges.js';
export type { CanvasList, CanvasListEntry, CanvasListFailure, ListOptions } from './store/read/list-canvas-entries.js';
export type { CanvasRef } from './store/repo/list-canvases.js';
export type { Applied, Conflict, DiffEntry, EditRecord, Outcome, Proposed, Rejected } from './store/repo/outcome.js';
export type { DecideRequest } from './store/write/decide-proposal.js';
export type { AccessReport } from './store/read/read-access.js';
export type { RemoteReport } from './store/remote/set-remote.js';
export type { SyncReport } from './store/remote/sync-workspace.js';
export type { CanvasRead, CanvasText } from './store/read/read-canvas.js';
export type { SnapshotOptions } from './store/read/read-snapshot.js';
export type { Grants, Role } from './store/repo/role.js';
export type { SearchFailure, SearchHit, SearchRequest, SearchResponse } from './store/search/search-canvases.js';
export type { VerifyReport, VerifyRule, Violation } from './store/verify/verify-workspace.js';
export type { AckRequest, AckResult } from './store/watch/ack-inbox.js';
export type { CanvasWatcher } from './store/watch/list-watchers.js';
export type { Inbox, InboxCanvas, InboxEvent, InboxProposal } from './store/read/read-inbox.js';
export type { WatchRequest, WatchResult } from './store/watch/watch-canvas.js';
export type { Watch } from './store/watch/watch-files.js';
export { resolveWorkspace, type Workspace, type WorkspaceOptions } from './store/repo/workspace.js';
export type { InsertRequest, MoveRequest, OpenRequest, RemoveRequest, ReplaceRequest, WriteRequest } from './store/write/write-requests.js';

/** Any async function, as the modules loaded on first call export them. */
type AsyncFunction = (...args: never[]) => Promise<unknown>;

/**
 * The function `name` of the module `load` imports, as a function with the same type that
 * imports the module on its first call (Node keeps the module, so later calls only look it up).
 *
 * @param load - the module's `import()`
 * @param name - the name of an async function it exports
 */
function onFirstCall<M extends { [P in K]: AsyncFunction }, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  const call = async (...args: unknown[]): Promise<unknown> => ((await load())[name] as unknown as (...a: unknown[]) => Promise<unknown>)(...args);
  return call as unknown as M[K];
}

const accessWrites = (): Promise<typeof AccessWrites> => import('./store/write/access-writes.js');
const lifecycle = (): Promise<typeof CanvasLifecycle> => import('./store/write/canvas-lifecycle.js');
const nodeWrites = (): Promise<typeof NodeWrites> => import('./store/write/node-writes.js');
const proposals = (): Promise<typeof Proposals> => import('./store/write/decide-proposal.js');
const readCanvasModule = (): Promise<typeof ReadCanvas> => import('./store/read/read-canvas.js');
const setRemoteModule = (): Promise<typeof SetRemote> => import('./store/remote/set-remote.js');

/** Create a canvas: the root alone (docs/store.md, "Writes"). */
export const createCanvas = onFirstCall(lifecycle, 'createCanvas');
/** Open a canvas: create plus the problem and expected-value text nodes (docs/store.md, "Writes"). */
export const openCanvas = onFirstCall(lifecycle, 'openCanvas');
/** Freeze a canvas: one empty commit recording its end (docs/store.md, "Writes"). */
export const freezeCanvas = onFirstCall(lifecycle, 'freezeCanvas');
/** Abandon a canvas: one empty commit recording that the work was given up (docs/store.md, "Endings"). */
export const abandonCanvas = onFirstCall(lifecycle, 'abandonCanvas');
/** Insert one node `--after` or `--into` an anchor (docs/identity.md). */
export const insertNode = onFirstCall(nodeWrites, 'insertNode');
/** Replace one node's content, keeping its id and place (docs/identity.md). */
export const replaceNode = onFirstCall(nodeWrites, 'replaceNode');
/** Remove one node without children (docs/identity.md). */
export const removeNode = onFirstCall(nodeWrites, 'removeNode');
/** Move one node (a section with its subtree) to a new place (docs/identity.md). */
export const moveNode = onFirstCall(nodeWrites, 'moveNode');
/** Grant a role on a canvas (docs/roles.md). */
export const grantRole = onFirstCall(accessWrites, 'grantRole');
/** Revoke a role on a canvas (docs/roles.md). */
export const revokeRole = onFirstCall(accessWrites, 'revokeRole');
/** A canvas's pending and decided proposals (docs/roles.md). */
export const listProposals = onFirstCall((): Promise<typeof ListProposals> => import('./store/read/list-proposals.js'), 'listProposals');
/** Approve a proposal: replay it through the write path against its own base (docs/roles.md). */
export const approveProposal = onFirstCall(proposals, 'approveProposal');
/** Reject a proposal (docs/roles.md). */
export const rejectProposal = onFirstCall(proposals, 'rejectProposal');
/** Read a canvas: its revision (the `Canvas-Base`), canonical XML and tree (docs/store.md, "Reads"). */
export const readCanvas = onFirstCall(readCanvasModule, 'readCanvas');
/** Read a canvas's committed text and revision without parsing it (docs/store.md, "Reads"). */
export const readCanvasText = onFirstCall(readCanvasModule, 'readCanvasText');
/** The snapshot a renderer takes: tree, revision, edits, crossings (docs/projections.md). */
export const readSnapshot = onFirstCall((): Promise<typeof ReadSnapshot> => import('./store/read/read-snapshot.js'), 'readSnapshot');
/** A canvas's commits, newest first (docs/store.md, "Commits"). */
export const canvasLog = onFirstCall((): Promise<typeof CanvasLog> => import('./store/read/canvas-log.js'), 'canvasLog');
/** Every commit that named one node, oldest first (docs/store.md, "Commits"). */
export const nodeHistory = onFirstCall((): Promise<typeof NodeHistory> => import('./store/read/node-history.js'), 'nodeHistory');
/** Every canvas of the workspace (docs/store.md, "Canvas refs"). */
export const listCanvases = onFirstCall((): Promise<typeof ListCanvases> => import('./store/repo/list-canvases.js'), 'listCanvases');
/** What a canvas links to, what links to it, who acted on it and who watches it (docs/links.md, "Edges"). */
export const canvasEdges = onFirstCall((): Promise<typeof CanvasEdges> => import('./store/read/canvas-edges.js'), 'canvasEdges');
/** Every canvas with its summary, last edit, questions, ending and the last write by a run (docs/cli.md, "list"). */
export const listCanvasEntries = onFirstCall((): Promise<typeof ListCanvasEntries> => import('./store/read/list-canvas-entries.js'), 'listCanvasEntries');
/** Nodes matching a query over every canvas's current revision, ranked, with snippets (docs/search.md). */
export const searchCanvases = onFirstCall((): Promise<typeof SearchCanvases> => import('./store/search/search-canvases.js'), 'searchCanvases');
/** A canvas's grants and who may grant (docs/roles.md). */
export const readAccess = onFirstCall((): Promise<typeof ReadAccess> => import('./store/read/read-access.js'), 'readAccess');
/** Check a workspace's history against the store's rules (docs/store.md, "Verify"). */
export const verifyWorkspace = onFirstCall((): Promise<typeof VerifyWorkspace> => import('./store/verify/verify-workspace.js'), 'verifyWorkspace');
/** Set the workspace's shared remote, the git remote `shared` in its repository's config; nothing is fetched or pushed (docs/remote.md, "The remote"). */
export const setRemote = onFirstCall(setRemoteModule, 'setRemote');
/** The workspace's shared remote and the remote's main as last fetched (docs/remote.md, "The remote"). */
export const showRemote = onFirstCall(setRemoteModule, 'showRemote');
/** Unset the workspace's shared remote and drop its refs as last fetched; nothing else moves (docs/remote.md, "The remote"). Throws `NO_REMOTE`. */
export const unsetRemote = onFirstCall(setRemoteModule, 'unsetRemote');
/** Bring the workspace and its shared remote to one state, under the repository lock: follow, push, or nothing (docs/remote.md, "Sync"). */
export const syncWorkspace = onFirstCall((): Promise<typeof SyncWorkspace> => import('./store/remote/sync-workspace.js'), 'syncWorkspace');
const watchModule = (): Promise<typeof WatchCanvas> => import('./store/watch/watch-canvas.js');
/** Watch a canvas: its later changes reach the author's inbox (docs/store.md, "Watches and the inbox"). */
export const watchCanvas = onFirstCall(watchModule, 'watchCanvas');
/** Stop watching a canvas (docs/store.md, "Watches and the inbox"). */
export const unwatchCanvas = onFirstCall(watchModule, 'unwatchCanvas');
/** Who watches a canvas, sorted by who (docs/store.md, "Watches and the inbox"). */
export const listWatchers = onFirstCall((): Promise<typeof ListWatchers> => import('./store/watch/list-watchers.js'), 'listWatchers');
/** The author's inbox: every change on the canvases they watch since each cursor, oldest first (docs/store.md, "Watches and the inbox"). */
export const readInbox = onFirstCall((): Promise<typeof ReadInbox> => import('./store/read/read-inbox.js'), 'readInbox');
/** Acknowledge what an inbox showed: each cursor moves to the revision shown, forward only (docs/store.md, "Watches and the inbox"). */
export const ackInbox = onFirstCall((): Promise<typeof AckInbox> => import('./store/watch/ack-inbox.js'), 'ackInbox');
