import type { Snapshot } from '../model/snapshot.js';

/** Renders a snapshot as the comment's block-level Markdown (docs/projections.md "The comment"). */
export type CommentRenderer = (snapshot: Snapshot) => string;

/**
 * Load the comment renderer lazily (it pulls the Markdown serializer, which `canvas read` never needs).
 *
 * @returns `renderComment` from `src/render/comment/render-comment.ts`
 */
export async function loadRenderComment(): Promise<CommentRenderer> {
  const { renderComment } = await import('../render/comment/render-comment.js');
  return renderComment;
}
