import type { Snapshot } from '../../model/snapshot.js';
import { drawFigures, type FigureDrawings } from '../figures/draw-figures.js';
import { readTemplate } from './read-template.js';

/** What a page needs besides its snapshot: the stylesheet and the figures' drawings. */
export interface PageAssets {
  /** `templates/page.css`, as shipped. */
  css: string;
  /** The drawings of the snapshot's figures, by figure id. */
  figures: FigureDrawings;
}

/**
 * Do the asynchronous part of a page once, before rendering it (`docs/projections.md`, "The
 * page"): read the stylesheet from the package's `templates/` (once per process) and draw the
 * snapshot's figures. The result is what `renderPage` takes: `renderPage(snapshot, await
 * preparePage(snapshot))`.
 *
 * @param snapshot - the snapshot the page is for
 * @returns the stylesheet text and the drawings by figure id
 * @throws Error when the package's `templates/page.css` cannot be read (a broken install)
 */
export async function preparePage(snapshot: Snapshot): Promise<PageAssets> {
  const [css, figures] = await Promise.all([readTemplate('page.css'), drawFigures(snapshot.canvas)]);
  return { css, figures };
}
