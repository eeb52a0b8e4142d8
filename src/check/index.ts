/**
 * The declared surface of `task-canvas/check` (docs/library.md, "Entries"): the coherence checker.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export { CHECK_AUTHOR, type CheckFinding, type CheckReport, type CheckRequest, checkCoherence, type FindingStatus } from './check-coherence.js';
export type { ModelConfig } from './model-config.js';
export type { Contradiction, DroppedEntry } from './parse-reply.js';
