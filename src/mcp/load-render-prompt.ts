import type { Snapshot } from '../model/snapshot.js';

/** The prompt renderer's signature (src/render/text/render-prompt.ts, docs/projections.md "The prompt"). */
export type RenderPrompt = (snapshot: Snapshot, options: { edits?: number; budget?: number; surface?: 'cli' | 'mcp' }) => string;

/**
 * Load the prompt renderer lazily (STYLE habit 9: renderers are imported by the commands that
 * need them).
 *
 * @returns `renderPrompt`
 * @throws Error when the renderer is not part of this build (a fault of the server)
 */
export async function loadRenderPrompt(): Promise<RenderPrompt> {
  const mod = await import('../render/text/render-prompt.js');
  return mod.renderPrompt;
}
