/**
 * The declared surface of `task-canvas/publish` (docs/library.md, "Entries"): the ledger row's Basecamp comment.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export type { TargetFlags } from './basecamp-target.js';
export { markdownToBasecampHtml } from './markdown-to-basecamp.js';
export { type PublishedComment, type PublishOptions, type PublishResult, publishComment } from './publish-comment.js';
