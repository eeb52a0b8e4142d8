import type { Snapshot } from '../model/snapshot.js';

/**
 * Render a snapshot as a projection, as `canvas render --format` and `canvas prompt` make it
 * (docs/projections.md); each renderer is loaded only when asked for. The prompt names the tools
 * to an MCP caller, not the commands.
 *
 * @param snapshot - the canvas at one revision
 * @param format - `text` (the prompt), `html` (the page) or `comment` (Markdown)
 * @param edits - how many recent edits the prompt shows (default 10)
 * @returns the projection's text
 */
export async function renderAs(snapshot: Snapshot, format: 'text' | 'html' | 'comment', edits?: number): Promise<string> {
  switch (format) {
    case 'html': {
      const [{ preparePage }, { renderPage }] = await Promise.all([import('../render/html/prepare-page.js'), import('../render/html/render-page.js')]);
      return renderPage(snapshot, await preparePage(snapshot));
    }
    case 'comment':
      return (await import('../render/comment/render-comment.js')).renderComment(snapshot);
    case 'text':
      return (await import('../render/text/render-prompt.js')).renderPrompt(snapshot, edits !== undefined ? { edits, surface: 'mcp' } : { surface: 'mcp' });
  }
}
