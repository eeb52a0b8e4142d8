// The page as the command line renders it: the figures drawn and the stylesheet read first
// (preparePage), then the synchronous renderPage.
import type { Snapshot } from '../../src/model/snapshot.js';
import { preparePage } from '../../src/render/html/prepare-page.js';
import { renderPage } from '../../src/render/html/render-page.js';

/**
 * Render a snapshot's page with its figures drawn.
 *
 * @param snapshot - the snapshot
 * @returns the page's HTML
 */
export async function pageOf(snapshot: Snapshot): Promise<string> {
  return renderPage(snapshot, await preparePage(snapshot));
}
