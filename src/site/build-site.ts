import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { checkNewLedgerId } from '../model/check-ledger-id.js';
import { canvasFile, canvasFilesAt, canvasNotFound, type CanvasRef, listCanvases, parseRepoPath, readLinkGraph, RepoReader, type Workspace } from '../store/index.js';
import { danglingLinks, type LinkWarning } from '../model/dangling-links.js';
import { contentHash } from './content-hash.js';
import { rendererVersion } from './renderer-version.js';
import { buildInPool } from './render-pool.js';
import { withDeskItems } from './build-canvases.js';
import { SiteDir } from './site-dir.js';
import { type ManifestEntry, type ManifestHead, PAGE_FILES, type SiteManifest, type SiteRenderers } from './site-types.js';
import { type VendoredMermaid, writeVendoredMermaid } from './vendor-mermaid.js';

/** The key of a workspace's link warnings: every canvas and its revision, hashed. */
function linksKey(all: readonly CanvasRef[]): string {
  return contentHash(all.map((c) => `${c.ledger} ${c.revision}\n`).join(''));
}

/** Options of {@link buildSite}. */
export interface BuildOptions {
  /** The output directory. */
  out: string;
  /** Only these ledgers (default: every canvas). */
  ledgers?: readonly string[] | undefined;
  /** Called after each canvas: done so far, total, and the ledger. */
  onProgress?: ((done: number, total: number, ledger: string) => void) | undefined;
  /** Threads rendering canvases, this one among them (default 1: this thread alone); see docs/site.md, "Every core". */
  workers?: number | undefined;
  /** Re-hash every output file against the manifest and rebuild what differs (default: trust it). */
  verifyOutput?: boolean | undefined;
  /** The pinned Mermaid files to put into the site (`--vendor-mermaid`), or none. */
  mermaid?: VendoredMermaid | undefined;
}

/** What a build did. */
export interface BuildReport {
  out: string;
  built: string[];
  unchanged: string[];
  failed: Array<{ ledger: string; code: string; message: string }>;
  /** The built canvases' `canvas:` links that point at nothing (docs/links.md, "Dangling links"). */
  warnings: LinkWarning[];
  /** With `--vendor-mermaid`: the version the site carries, its file count, the files written now. */
  vendored?: { mermaid: string; files: number; written: number };
}

/** True when each file holds what the manifest recorded (a missing or unreadable file does not). */
function sameFiles(dir: string, files: Record<string, string>): boolean {
  try {
    return Object.entries(files).every(([name, h]) => contentHash(readFileSync(join(dir, name))) === h);
  } catch {
    return false;
  }
}

/** The manifest with its entries in ledger order, as written. */
function sortedManifest(renderer: string, entries: SiteManifest['entries']): SiteManifest {
  return {
    renderer,
    entries: Object.fromEntries(
      Object.keys(entries)
        .sort()
        .map((k) => [k, entries[k]!]),
    ),
  };
}

/**
 * Refuse to build an empty site from a repository that holds canvas files (docs/site.md): with
 * no canvas found, `<ledger>.xml` files at the root of main or of the working tree mean the
 * canvases exist but cannot be told from main's history (commits made without the tool carry no
 * `Canvas-Ledger`), and "built 0" would be a silent success.
 *
 * @throws CanvasError `NO_CANVAS_FOUND` naming the files
 */
async function refuseUnfoundCanvases(ws: Workspace): Promise<void> {
  const files = new Set<string>();
  if (existsSync(join(ws.repo, '.git'))) {
    const reader = new RepoReader(ws);
    try {
      const main = await reader.main();
      if (main) for (const l of await canvasFilesAt(reader, main)) files.add(canvasFile(l));
    } finally {
      reader.close();
    }
  }
  if (existsSync(ws.repo)) for (const name of readdirSync(ws.repo)) if (parseRepoPath(name)?.kind === 'canvas') files.add(name);
  if (files.size === 0) return;
  const names = [...files].sort();
  throw new CanvasError(
    'NO_CANVAS_FOUND',
    `${ws.repo} holds ${names.length} canvas file(s) (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}) but no commit on main names a canvas: nothing was built`,
    "the files were not committed by the tool; run `canvas verify` to see which commits are not the store's",
    { files: names },
  );
}

/**
 * Build the static site (`docs/site.md`): every canvas at its revision to
 * `DIR/<ledger>/index.html`, `comment.md` and `prompt.txt`, plus `DIR/index.html` listing every
 * canvas. Byte-identical output for identical input, whatever the number of workers;
 * incremental through a manifest of what was built from which revision with which renderers: a
 * canvas whose revision and renderers did not change is not read, rendered or written again, and
 * its files are trusted unless `verifyOutput` re-hashes them. One bad canvas does not stop the
 * build: it is reported and the rest is built. The build writes only inside a directory that is
 * absent (it makes it), empty, or holds its own manifest, never through a link inside it, and
 * removes the pages of canvases that no longer exist (only the files its manifest lists):
 * docs/site.md, "Where the build writes".
 *
 * @param ws - the workspace
 * @param options - the output directory, the ledgers to build, a progress callback, the number
 *   of workers, whether to verify the outputs
 * @param renderers - renderers to run in this thread (then `workers` is 1); by default the
 *   package's own ({@link loadRenderers}), loaded only when something is to be rendered
 * @returns what was built, left unchanged, or failed, and the warnings about `canvas:` links of
 *   the canvases asked for that point at nothing (docs/links.md, "Dangling links")
 * @throws CanvasError `CANVAS_NOT_FOUND` for a `ledgers` entry that is not a canvas;
 *   `OUTPUT_IN_REPOSITORY` for an output directory inside `state/canvas`; `BAD_OUT_DIR` for one
 *   the build may not write (see {@link SiteDir}); each before anything is written; `INTERNAL`
 *   when a worker fails
 */
export async function buildSite(ws: Workspace, options: BuildOptions, renderers?: SiteRenderers): Promise<BuildReport> {
  const out = resolve(options.out);
  const site = SiteDir.open(ws, out);
  const all = await listCanvases(ws);
  if (all.length === 0) await refuseUnfoundCanvases(ws);
  const wanted = options.ledgers ? new Set(options.ledgers) : null;
  for (const ledger of wanted ?? []) {
    if (!all.some((c) => c.ledger === ledger)) {
      throw canvasNotFound(ws.root, ledger);
    }
  }
  const failed: BuildReport['failed'] = [];
  // A canvas made before its ledger id was reserved (docs/site.md) has no place in the site: it
  // fails alone, and none of its paths is judged or written.
  const todo = all.filter((c) => {
    if (wanted !== null && !wanted.has(c.ledger)) return false;
    try {
      checkNewLedgerId(c.ledger);
      return true;
    } catch (e) {
      const err = e as CanvasError;
      failed.push({ ledger: c.ledger, code: err.code, message: err.message });
      return false;
    }
  });
  const vendoredMermaid = options.mermaid !== undefined;
  const version = renderers?.version ?? rendererVersion({ vendoredMermaid });
  const asked = new Set(todo.map((c) => c.ledger));
  // Nothing changed (docs/site.md, "Incremental"): the manifest's head says so, and the entries
  // are not read. The index and the manifest are still judged, as every build judges them.
  const head = site.head;
  if (head !== null && head.renderer === version && !options.verifyOutput && !vendoredMermaid) {
    const live = new Set(all.map((c) => c.ledger));
    // Every canvas asked for at the revision its files were built from, none gone, and no entry
    // other renderers wrote (its row would be rendered again).
    const built = new Map(head.revisions);
    const still = todo.every((c) => built.get(c.ledger) === c.revision) && head.revisions.every(([l, r]) => r !== '' && live.has(l));
    site.check(['index.html', '.canvas-build.json']);
    if (still && existsSync(join(site.path, 'index.html'))) {
      const warnings = head.links === linksKey(all) ? head.warnings.filter((w) => asked.has(w.ledger)) : danglingLinks(await readLinkGraph(ws, all), asked);
      return { out, built: [], unchanged: todo.map((c) => c.ledger), failed, warnings };
    }
  }
  const same = site.previous?.renderer === version;
  // Each entry keeps the renderers that wrote its files: after a renderer change, a canvas this
  // build does not build (--ledger) stays listed, and the next build that takes it in rebuilds it.
  const manifest: SiteManifest = { renderer: version, entries: {} };
  for (const [ledger, e] of Object.entries(site.previous?.entries ?? {})) {
    const { renderer: by = site.previous!.renderer, ...entry } = e;
    manifest.entries[ledger] = by === version ? entry : { ...entry, renderer: String(by) };
  }
  // Whether any entry is added, replaced or removed: a build that changes none keeps the index.
  let changed = !same;
  // Trust the manifest (docs/site.md, "Incremental"): the revision and the renderers decide.
  const report: BuildReport = { out, built: [], unchanged: [], failed, warnings: [] };
  const stale = todo.filter((c) => {
    const previous = manifest.entries[c.ledger];
    const same = previous !== undefined && previous.revision === c.revision && previous.renderer === undefined;
    if (same && !options.verifyOutput) report.unchanged.push(c.ledger);
    return !same;
  });
  // Where the build writes (docs/site.md): every path it may write or remove is judged before
  // the first write, so a link or a file it did not make is refused with nothing written.
  const live = new Set(all.map((c) => c.ledger));
  const gone = Object.entries(site.previous?.entries ?? {}).filter(([ledger]) => !live.has(ledger));
  const pagesOf = (list: readonly CanvasRef[]) => list.flatMap((c) => PAGE_FILES.map((name) => `${c.ledger}/${name}`));
  site.check([
    'index.html',
    '.canvas-build.json',
    ...pagesOf(options.verifyOutput ? todo : stale),
    ...gone.flatMap(([ledger, e]) => Object.keys(e.files).map((name) => `${ledger}/${name}`)),
    ...(options.mermaid?.files.map((f) => f.path) ?? []),
  ]);
  if (options.verifyOutput) {
    for (const c of todo) {
      if (stale.includes(c)) continue;
      if (sameFiles(join(site.path, c.ledger), manifest.entries[c.ledger]!.files)) report.unchanged.push(c.ledger);
      else stale.push(c);
    }
  }
  site.claim(version);
  // The pages of canvases that no longer exist go: only the files the manifest lists.
  for (const [ledger, e] of gone) {
    site.remove(ledger, Object.keys(e.files));
    delete manifest.entries[ledger];
    changed = true;
  }
  // The module goes in before the pages that load it.
  if (options.mermaid) report.vendored = writeVendoredMermaid(site, options.mermaid);
  let loaded: Promise<SiteRenderers> | null = null;
  const load = () => (loaded ??= renderers ? Promise.resolve(renderers) : import('./load-renderers.js').then((m) => m.loadRenderers({ vendoredMermaid })));
  let done = report.unchanged.length;
  const total = report.unchanged.length + stale.length;
  const results = await buildInPool(
    ws,
    stale,
    { path: site.path, given: site.named },
    {
      workers: renderers ? 1 : Math.max(1, options.workers ?? 1),
      vendoredMermaid,
      renderers: load,
      onResult: (r) => {
        done += 1;
        options.onProgress?.(done, total, r.ledger);
      },
    },
  );
  changed ||= results.length > 0;
  for (const r of results) {
    if ('entry' in r) {
      manifest.entries[r.ledger] = r.entry;
      report.built.push(r.ledger);
    } else {
      report.failed.push({ ledger: r.ledger, ...r.failed });
      delete manifest.entries[r.ledger];
    }
  }
  // An index row or desk items the manifest lacks, or that other renderers made, are rendered
  // from the entry; under --verify-output every one is, and one that differs from the manifest's
  // (edited there) is replaced, index and manifest rewritten (docs/site.md, "Incremental").
  for (const [ledger, { files, row, renderer, ...entry }] of Object.entries(manifest.entries)) {
    if (typeof row === 'string' && renderer === undefined && !options.verifyOutput) continue;
    const r = await load();
    const fresh = r.renderIndexRow?.(entry);
    // A desk kept as it is (no renderer of its items) is rendered into items now; items another
    // renderer made stay as they are, with its files.
    const kept = entry.desk ? withDeskItems(entry, r.renderDeskItems) : entry;
    if (fresh === row && kept === entry) continue;
    manifest.entries[ledger] = { ...kept, ...(fresh === undefined ? {} : { row: fresh }), files, ...(renderer === undefined ? {} : { renderer }) };
    changed = true;
  }
  // A build that changed no entry leaves the index and the manifest as they are (their bytes
  // would be the same), unless the index is not what the manifest recorded.
  const indexPath = join(site.path, 'index.html');
  const indexKept = !changed && site.previous?.index !== undefined && (!options.verifyOutput || sameFiles(site.path, { 'index.html': site.previous.index }));
  // Every canvas's warnings, kept in the manifest's head for the next build that finds nothing changed.
  const warnings = danglingLinks(await readLinkGraph(ws, all), live);
  report.warnings = warnings.filter((w) => asked.has(w.ledger));
  if (!indexKept || !existsSync(indexPath) || site.head === null) {
    const sorted = sortedManifest(manifest.renderer, manifest.entries);
    const entries = all.map((c) => sorted.entries[c.ledger]).filter((e): e is ManifestEntry => e !== undefined);
    // Each row as the build that rendered its canvas made it: joined, not rendered again.
    const index = (await load()).renderIndex(entries.map(({ files: _files, renderer: _renderer, ...e }) => e));
    site.write('index.html', index);
    const indexHash = contentHash(index);
    const head: ManifestHead = {
      renderer: sorted.renderer,
      revisions: Object.entries(sorted.entries).map(([ledger, e]) => [ledger, e.renderer === undefined ? e.revision : '']),
      index: indexHash,
      links: linksKey(all),
      warnings,
    };
    // Two lines, each of one JSON value: the head, then the entries. At 1,000 canvases an
    // indented manifest takes half again as long to write and read, and the entries are read
    // only when something changed.
    site.write('.canvas-build.json', `${JSON.stringify(head)}\n${JSON.stringify({ ...sorted, index: indexHash })}\n`);
  }
  return report;
}
