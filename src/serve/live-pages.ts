import type { DeskProposal } from '../model/desk.js';
import type { Snapshot } from '../model/snapshot.js';
import { indexEntryOf } from '../render/html/index-entry.js';
import type { LiveAssets } from '../render/html/live-assets.js';
import { preparePage } from '../render/html/prepare-page.js';
import { TEMPLATES } from '../render/html/templates.js';
import { renderIndex } from '../render/html/render-index.js';
import { renderPage } from '../render/html/render-page.js';
import { readOpenProposals, readSnapshot, RepoReader, type Workspace } from '../store/index.js';

/** Where the served pages load the live script and stylesheet from. */
const LIVE_ASSETS: LiveAssets = { script: '/_canvas/live.js', stylesheet: '/_canvas/live.css' };

/** One canvas as served: its snapshot, and its page and its open proposals once asked for. */
interface Served {
  revision: string;
  snapshot: Snapshot;
  html: string | null;
  proposals: DeskProposal[] | null;
}

/**
 * The pages `canvas serve` serves (docs/serve.md, "The pages"): the canvas page and the index,
 * rendered by the renderers `canvas build` uses from the snapshot `canvas build` reads, with the
 * live script and stylesheet added. Cached by canvas revision, so a page is rendered once per
 * revision however many tabs load it.
 */
export class LivePages {
  private readonly pages = new Map<string, Served>();

  constructor(private readonly ws: Workspace) {}

  /** The revision of a canvas now, or null when there is no such canvas. */
  async revision(ledger: string): Promise<string | null> {
    const reader = new RepoReader(this.ws);
    try {
      return await reader.revision(ledger);
    } finally {
      reader.close();
    }
  }

  /**
   * A canvas page at the canvas's revision.
   *
   * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, and what reading the canvas throws
   */
  async page(ledger: string): Promise<{ revision: string; html: string }> {
    const served = await this.served(ledger);
    served.html ??= renderPage(served.snapshot, { ...(await preparePage(served.snapshot)), live: LIVE_ASSETS, index: '../index.html' });
    return { revision: served.revision, html: served.html };
  }

  private async served(ledger: string): Promise<Served> {
    const revision = await this.revision(ledger);
    const hit = this.pages.get(ledger);
    if (hit && hit.revision === revision) return hit;
    const snapshot = await readSnapshot(this.ws, { ledger });
    const served: Served = { revision: snapshot.revision, snapshot, html: null, proposals: null };
    this.pages.set(ledger, served);
    return served;
  }

  /**
   * The index of the given canvases, sorted as the site sorts them (by ledger id).
   *
   * @param ledgers - the canvases of the workspace
   */
  async index(ledgers: readonly string[]): Promise<string> {
    const entries = [];
    for (const ledger of [...ledgers].sort()) {
      const served = await this.served(ledger);
      served.proposals ??= await readOpenProposals(this.ws, ledger, served.snapshot.canvas, served.revision);
      entries.push(indexEntryOf(served.snapshot, served.proposals));
    }
    const css = `${TEMPLATES.pageCss}\n${TEMPLATES.indexCss}`;
    return renderIndex(entries, css, LIVE_ASSETS, TEMPLATES.indexScript);
  }
}
