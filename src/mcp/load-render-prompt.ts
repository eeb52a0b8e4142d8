import type { Snapshot } from '../model/snapshot.js';

/** The prompt renderer's signature (src/render/text/render-prompt.ts, design section 7). */
export type RenderPrompt = (snapshot: Snapshot, options: { edits?: number; budget?: number }) => string;

// The specifier is held in a variable until the renderer is on this branch: a literal path to a
// file that does not exist yet fails both the type check and the bundle. Once
// src/render/text/render-prompt.ts is present, replace the two lines below with
//   const mod = await import('../render/text/render-prompt.js');
// so that esbuild bundles the renderer into the CLI (a variable specifier is left unresolved,
// and the bundled CLI would not find it).
const RENDER_PROMPT = '../render/text/render-prompt.js';

/**
 * Load the prompt renderer lazily (STYLE habit 9: renderers are imported by the commands that
 * need them).
 *
 * @returns `renderPrompt`
 * @throws Error when the renderer is not part of this build (a fault of the server)
 */
export async function loadRenderPrompt(): Promise<RenderPrompt> {
  const mod = (await import(RENDER_PROMPT)) as { renderPrompt: RenderPrompt };
  return mod.renderPrompt;
}
