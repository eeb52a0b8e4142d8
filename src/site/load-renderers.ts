import { MERMAID_PIN } from '../render/figures/mermaid-pin.js';
import type { SiteRenderers } from './site-types.js';
import { rendererVersion } from './renderer-version.js';

/**
 * Load the renderers the site build uses (lazily: only `canvas build` pays for them, and only
 * when it has something to render), with their version ({@link rendererVersion}).
 * `vendoredMermaid`: the site carries its own copy of the pinned Mermaid module
 * (`--vendor-mermaid`, docs/site.md "Mermaid offline"), and its pages load it from there.
 */
export async function loadRenderers(options: { vendoredMermaid?: boolean } = {}): Promise<SiteRenderers> {
  const [{ renderPage }, { preparePage }, { renderComment }, { renderPrompt }, { renderIndex, renderIndexRow }, { TEMPLATES }] = await Promise.all([
    import('../render/html/render-page.js'),
    import('../render/html/prepare-page.js'),
    import('../render/comment/render-comment.js'),
    import('../render/text/render-prompt.js'),
    import('../render/html/render-index.js'),
    import('../render/html/templates.js'),
  ]);
  const { renderDeskItems } = await import('../render/html/desk-section.js');
  const indexCss = `${TEMPLATES.pageCss}\n${TEMPLATES.indexCss}`;
  const indexScript = TEMPLATES.indexScript;
  const mermaid = options.vendoredMermaid ? `../${MERMAID_PIN.vendored}` : undefined;
  return {
    // A page of the site links back to the site's index, one folder up, and loads Mermaid from
    // the site's own copy when it carries one (docs/site.md).
    renderPage: async (snapshot) => renderPage(snapshot, { ...(await preparePage(snapshot)), index: '../index.html', mermaid }),
    renderComment,
    renderPrompt,
    renderIndexRow,
    renderDeskItems,
    renderIndex: (entries) => renderIndex(entries, indexCss, undefined, indexScript),
    version: rendererVersion(options),
  };
}
