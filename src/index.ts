/**
 * The public surface of the canvas library. Every export is named here (no `export *`); a test
 * checks the sorted list, so growing the API is a visible decision.
 */
export { CanvasError, ERROR_CODES, type ErrorCode, type ErrorKind, exitCodeFor } from './model/canvas-error.js';
export { type NodeChange, type NodeState, diffCanvases } from './model/diff-canvases.js';
export { parseCanvas } from './model/parse-canvas.js';
export { parsePayload } from './model/parse-payload.js';
export type { PayloadInput } from './model/payload-from-input.js';
export { serializeCanvas } from './model/serialize-canvas.js';
export { serializeNode } from './model/serialize-node.js';
export type { Crossing, HistoryEntry, Snapshot, SnapshotEdit } from './model/snapshot.js';
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
export { type AccessFile, type GrantRequest, grantRole, type RevokeRequest, revokeRole } from './store/access-writes.js';
export type { ProposalFile } from './store/apply-edit.js';
export { createCanvas, freezeCanvas, openCanvas } from './store/canvas-lifecycle.js';
export { canvasLog } from './store/canvas-log.js';
export { type CanvasRef, listCanvases } from './store/list-canvases.js';
export { nodeHistory } from './store/node-history.js';
export { insertNode, moveNode, removeNode, replaceNode } from './store/node-writes.js';
export type { Applied, Conflict, DiffEntry, EditRecord, Outcome, Proposed, Rejected } from './store/outcome.js';
export { approveProposal, type DecideRequest, listProposals, rejectProposal } from './store/proposals.js';
export { type AccessReport, readAccess } from './store/read-access.js';
export { type CanvasRead, type CanvasText, readCanvas, readCanvasText } from './store/read-canvas.js';
export { readSnapshot, type SnapshotOptions } from './store/read-snapshot.js';
export type { InsertRequest, MoveRequest, OpenRequest, RemoveRequest, ReplaceRequest, WriteRequest } from './store/write-requests.js';
export type { Grants, Role } from './store/role.js';
export { type VerifyReport, type VerifyRule, type Violation, verifyWorkspace } from './store/verify-workspace.js';
export { resolveWorkspace, type Workspace, type WorkspaceOptions } from './store/workspace.js';
export { type ImportedNode, type ImportRequest, type ImportResult, importMarkdown } from './import/import-markdown.js';
export type { Flattening } from './import/import-plan.js';
export { parseDiagram } from './model/diagram/parse-diagram.js';
export type { Diagram, DiagramDirection, DiagramEdge, DiagramGroup, DiagramNode, DiagramPosition } from './model/diagram/diagram-types.js';
export { type DrawDiagramOptions, drawDiagram } from './render/figures/draw-diagram.js';
export { type SanitizeSvgOptions, sanitizeSvg } from './render/figures/sanitize-svg.js';
export type { CanvasServerOptions } from './mcp/build-mcp-server.js';
export { createMcpServer } from './mcp/create-mcp-server.js';
export { startMcpServer } from './mcp/start-mcp-server.js';
export { type PageOptions, renderPage } from './render/html/render-page.js';
export { type PageAssets, preparePage } from './render/html/prepare-page.js';
export { drawFigures, type FigureDrawings } from './render/figures/draw-figures.js';
export { renderComment } from './render/comment/render-comment.js';
export { type PromptOptions, renderPrompt } from './render/text/render-prompt.js';
export { markdownToBasecampHtml } from './publish/markdown-to-basecamp.js';
export type { TargetFlags } from './publish/basecamp-target.js';
export { CHECK_AUTHOR, type CheckFinding, type CheckReport, type CheckRequest, checkCoherence, type FindingStatus } from './check/check-coherence.js';
export type { ModelConfig } from './check/model-config.js';
export type { Contradiction, DroppedEntry } from './check/parse-reply.js';
export { type PublishedComment, type PublishOptions, type PublishResult, publishComment } from './publish/publish-comment.js';
