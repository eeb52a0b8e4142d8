/**
 * The store's declared surface: every name the folders above it (`site`, `publish`, `check`,
 * `import`, `serve`, `mcp`) and the library take from the store, named here (no `export *`), so a
 * file moving inside the store changes this file and nothing above it (docs/architecture.md,
 * "Inside `store/`"). The CLI and the library's main entry name the store's files themselves,
 * each loaded by the command or the call that needs it: importing this file loads the whole store.
 *
 * The sections follow the store's layers, lowest first: each folder imports only the folders
 * above it in this list.
 */
// files/
export { noSpace } from './files/no-space.js';
export { permissionDenied } from './files/permission-denied.js';
export { privateName } from './files/private-name.js';
export { readPackageFile } from './files/read-package-file.js';
export { readPackageVersion } from './files/read-package-version.js';
export { sweepAbandoned } from './files/remove-if-abandoned.js';
export { removeQuietly } from './files/remove-quietly.js';
export { sweepPrivateFiles } from './files/sweep-private-files.js';
export { writePrivateFile } from './files/write-private-file.js';

// git/
export { runGit } from './git/git.js';

// repo/
export type { AccessFile } from './repo/access-file.js';
export { type AgentToken, addAgentToken, listAgentTokens, revokeAgentToken, whoOfAgentToken } from './repo/agent-tokens.js';
export { canvasNotFound } from './repo/canvas-not-found.js';
export { historyEntry } from './repo/history-entry.js';
export { insideRepository } from './repo/inside-repository.js';
export { canvasFile, parseRepoPath } from './repo/layout.js';
export { type CanvasRef, listCanvases } from './repo/list-canvases.js';
export type { Applied, Conflict, DiffEntry, EditRecord, Outcome, Proposed, Rejected } from './repo/outcome.js';
export type { ProposalFile } from './repo/proposal-file.js';
export { canvasFilesAt } from './repo/rebuild-canvas-refs.js';
export { withRepoLock } from './repo/repo-lock.js';
export { RepoReader } from './repo/repo-reader.js';
export { type Grants, type Role, roleOf, roleRank } from './repo/role.js';
export { resolveWorkspace, type Workspace, type WorkspaceOptions } from './repo/workspace.js';

// remote/
export { type RemoteReport, setRemote, showRemote, unsetRemote } from './remote/set-remote.js';
export { remoteUrl } from './remote/shared-remote.js';
export { type SyncReport, syncWorkspace } from './remote/sync-workspace.js';

// watch/
export { ackInbox, type AckRequest, type AckResult } from './watch/ack-inbox.js';
export { type CanvasWatcher, listWatchers } from './watch/list-watchers.js';
export { type RefChange, RefWatcher } from './watch/ref-watcher.js';
export { recordWatch, unwatchCanvas, watchCanvas, type WatchRequest, type WatchResult } from './watch/watch-canvas.js';
export type { Watch } from './watch/watch-files.js';

// read/
export type { CanvasActor } from './read/canvas-actors.js';
export { canvasEdges, type CanvasEdges, type EdgeLinkIn, type EdgeLinkOut } from './read/canvas-edges.js';
export { canvasLog } from './read/canvas-log.js';
export { type CanvasList, type CanvasListEntry, type CanvasListFailure, listCanvasEntries, type ListOptions } from './read/list-canvas-entries.js';
export { listReadableCanvases } from './read/list-readable-canvases.js';
export { nodeHistory } from './read/node-history.js';
export { listProposals } from './read/list-proposals.js';
export { type AccessReport, readAccess, roleOnCanvas } from './read/read-access.js';
export { type CanvasText, readCanvasText } from './read/read-canvas-text.js';
export { type CanvasRead, readCanvas } from './read/read-canvas.js';
export { type Inbox, type InboxCanvas, type InboxEvent, type InboxProposal, readInbox } from './read/read-inbox.js';
export { readDesk, readOpenProposals } from './read/read-desk.js';
export { readLinkGraph } from './read/read-link-graph.js';
export { readNodes } from './read/read-nodes.js';
export { readSnapshot, type SnapshotOptions } from './read/read-snapshot.js';
export { readSnapshots } from './read/read-snapshots.js';

// write/
export { type GrantRequest, grantRole, type RevokeRequest, revokeRole } from './write/access-writes.js';
export { abandonCanvas, createCanvas, freezeCanvas, openCanvas } from './write/canvas-lifecycle.js';
export { insertNode, moveNode, removeNode, replaceNode } from './write/node-writes.js';
export { approveProposal, type DecideRequest, rejectProposal } from './write/decide-proposal.js';
export { rejectionOf } from './write/rejection-of.js';
export type { InsertRequest, MoveRequest, OpenRequest, RemoveRequest, ReplaceRequest, WriteRequest } from './write/write-requests.js';

// search/
export { searchCanvases, type SearchFailure, type SearchHit, type SearchRequest, type SearchResponse } from './search/search-canvases.js';

// verify/
export { type VerifyReport, type VerifyRule, verifyWorkspace, type Violation } from './verify/verify-workspace.js';
