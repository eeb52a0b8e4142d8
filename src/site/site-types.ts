// The site build's shared shapes: the manifest, the renderers the build is handed, and the files
// of a canvas's folder. In their own file so the build's parts import them without importing the
// build (docs/site.md).
import type { LinkWarning } from '../model/dangling-links.js';
import type { Snapshot } from '../model/snapshot.js';
import type { Desk } from '../model/desk.js';
import type { DeskHtml } from '../render/html/desk-section.js';
import type { IndexEntry } from '../render/html/render-index.js';

/** The files of each canvas's folder, and the only names a manifest entry may list. */
export const PAGE_FILES = ['index.html', 'comment.md', 'prompt.txt'] as const;

/**
 * One canvas's record in the manifest: its line on the index page, that line's HTML as
 * `renderIndexRow` made it and its desk's items' HTML as `renderDeskItems` made them, in place of
 * the desk (joined into the index without rendering them again; docs/site.md, "Incremental"), its
 * files' hashes, and the version of the renderers that wrote those files when it is not the
 * manifest's own (an entry a `--ledger` build kept through a renderer change).
 */
export type ManifestEntry = IndexEntry & { row?: string; deskHtml?: DeskHtml; files: Record<string, string>; renderer?: string };

/** What was built from what: `DIR/.canvas-build.json`. */
export interface SiteManifest {
  /** Invalidates every entry when the renderers or templates change. */
  renderer: string;
  entries: Record<string, ManifestEntry>;
  /** The hash of the index page written with these entries (checked by `--verify-output`). */
  index?: string;
}

/**
 * The manifest's first line (docs/site.md, "Incremental"): what a build needs to find that nothing
 * changed without reading the entries, and the link warnings of the workspace it was written for.
 */
export interface ManifestHead {
  renderer: string;
  /**
   * Each entry's ledger id and revision (`''` for an entry whose files other renderers wrote), in
   * ledger order: pairs, not an object keyed by ledger id, whose thousand keys V8 would give a
   * hidden class each (the entries line pays that already).
   */
  revisions: Array<[ledger: string, revision: string]>;
  /** The hash of the index page written with these entries. */
  index: string;
  /** The key of the workspace the warnings were found in: every canvas and its revision, hashed. */
  links: string;
  /** The dangling `canvas:` links of every canvas of that workspace, in ledger order. */
  warnings: LinkWarning[];
}

/** The renderers the site uses (injected, so `src/site` never touches git itself for them). */
export interface SiteRenderers {
  /** The page with its figures drawn (the one asynchronous renderer: drawing is). */
  renderPage: (s: Snapshot) => Promise<string> | string;
  renderComment: (s: Snapshot) => string;
  renderPrompt: (s: Snapshot, o: { edits?: number }) => string;
  /**
   * One canvas's row of the index page, as HTML: what `renderIndex` writes for the entry. Without
   * it (renderers written before it existed) no row is kept, and `renderIndex` renders every row.
   */
  renderIndexRow?: ((entry: IndexEntry) => string) | undefined;
  /**
   * One canvas's desk items, as HTML: what `renderIndex` writes for them. Without it no items are
   * kept, and `renderIndex` renders every desk's items.
   */
  renderDeskItems?: ((desk: Desk) => DeskHtml) | undefined;
  /** The index page; an entry's `row` and `deskHtml`, when given, are written as they are. */
  renderIndex: (entries: ReadonlyArray<IndexEntry & { row?: string; deskHtml?: DeskHtml }>) => string;
  /** A string that changes whenever any renderer or template changes. */
  version: string;
}
