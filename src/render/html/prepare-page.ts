import { CanvasError } from '../../model/canvas-error.js';
import type { Snapshot } from '../../model/snapshot.js';
import { drawFigures, type FigureDrawings } from '../figures/draw-figures.js';
import { TEMPLATES } from './templates.js';

/** What a page needs besides its snapshot: the stylesheet and the figures' drawings. */
export interface PageAssets {
  /** `templates/page.css`, as shipped (compiled in: src/render/html/templates.ts). */
  css: string;
  /** The drawings of the snapshot's figures, by figure id. */
  figures: FigureDrawings;
}

/**
 * Do the asynchronous part of a page once, before rendering it (`docs/projections.md`, "The
 * page"): take the stylesheet compiled in from `templates/page.css` and draw the snapshot's
 * figures. The result is what `renderPage` takes: `renderPage(snapshot, await
 * preparePage(snapshot))`. A page never leaves a figure out without saying so: a figure that
 * cannot be drawn (the sanitizer cannot run, a drawer fails, a source the write-time check would
 * refuse) makes the page fail, naming it (docs/projections.md, "The page"), so `canvas render` and
 * `canvas build` fail for that canvas instead of writing a page without its picture.
 *
 * @param snapshot - the snapshot the page is for
 * @returns the stylesheet text and the drawings by figure id
 * @throws CanvasError `FIGURE_NOT_DRAWN` naming the first figure that could not be drawn (its
 *   cause's code in `data.cause`)
 */
export async function preparePage(snapshot: Snapshot): Promise<PageAssets> {
  const css = TEMPLATES.pageCss;
  const figures = await drawFigures(snapshot.canvas);
  for (const [node, drawn] of figures) {
    if (!(drawn instanceof CanvasError)) continue;
    if (drawn.code === 'FIGURE_NOT_DRAWN') throw drawn;
    throw new CanvasError('FIGURE_NOT_DRAWN', `figure ${node} of canvas ${snapshot.ledger} could not be drawn (${drawn.code}): ${drawn.message}`, drawn.hint, { node, cause: drawn.code, ...drawn.data });
  }
  return { css, figures };
}
