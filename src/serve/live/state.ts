// What the tab knows and remembers, in one place: the canvas it shows, the revision on the page,
// the session, the open editor, the shared remote's sync, and the revisions its own writes made.
import type { WireRemote, WireSession, WireTree } from './wire.js';

/** The canvas this page shows ('' on the index). */
export const LEDGER = decodeURIComponent(location.pathname.split('/')[1] ?? '');
/** True on a canvas's page, false on the index. */
export const ON_CANVAS = LEDGER !== '' && LEDGER !== 'index.html';

/** The open editor: its panel, the revision it decides against, the control that opened it. */
export interface Editing {
  panel: HTMLElement;
  base: string;
  opener: HTMLElement | null;
  notice: HTMLElement;
}

/** The tab's state. */
export const live: {
  /** The revision the page shows (the page's own `code.revision`). */
  shown: string | null;
  session: WireSession | null;
  editing: Editing | null;
  /** The server's sync with a shared remote while it fails; else null. */
  remote: WireRemote | null;
  /** The canvas tree at the page's revision, read once per revision. */
  tree: WireTree | null;
  /** The outcome of this page's last decision on a proposal, drawn above the list. */
  decided: HTMLElement | null;
} = {
  shown: document.querySelector('code.revision')?.textContent ?? null,
  session: null,
  editing: null,
  remote: null,
  tree: null,
  decided: null,
};

/** The revisions this page's own writes made: their news is the editor's outcome, not repeated. */
export const own = new Set<string>();

/** The path of a route of this canvas: `/<ledger>/<route>`. */
export const canvasPath = (route: string): string => `/${encodeURIComponent(LEDGER)}/${route}`;
