import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { checkNewLedgerId } from '../model/check-ledger-id.js';
import { indexEntryOf } from '../render/html/index-entry.js';
import type { IndexEntry } from '../render/html/render-index.js';
import { listCanvases } from '../store/list-canvases.js';
import { canvasFilesAt } from '../store/rebuild-canvas-refs.js';
import { readSnapshot } from '../store/read-snapshot.js';
import { RepoReader } from '../store/repo-reader.js';
import type { Workspace } from '../store/workspace.js';
import { SiteDir } from './site-dir.js';

/** One canvas's line on the index page, kept in the manifest so unchanged canvases are not read. */
type SiteEntry = IndexEntry;

/** What was built from what: `DIR/.canvas-build.json`. */
export interface SiteManifest {
  /** Invalidates every entry when the renderers or templates change. */
  renderer: string;
  entries: Record<string, SiteEntry & { files: Record<string, string> }>;
}

/** The renderers the site uses (injected, so `src/site` never touches git itself for them). */
export interface SiteRenderers {
  /** The page with its figures drawn (the one asynchronous renderer: drawing is). */
  renderPage: (s: import('../model/snapshot.js').Snapshot) => Promise<string> | string;
  renderComment: (s: import('../model/snapshot.js').Snapshot) => string;
  renderPrompt: (s: import('../model/snapshot.js').Snapshot, o: { edits?: number }) => string;
  renderIndex: (entries: readonly SiteEntry[]) => string;
  /** A string that changes whenever any renderer or template changes. */
  version: string;
}

/** Options of {@link buildSite}. */
export interface BuildOptions {
  /** The output directory. */
  out: string;
  /** Only these ledgers (default: every canvas). */
  ledgers?: readonly string[] | undefined;
  /** Called after each canvas: done so far, total, and the ledger. */
  onProgress?: ((done: number, total: number, ledger: string) => void) | undefined;
}

/** What a build did. */
export interface BuildReport {
  out: string;
  built: string[];
  unchanged: string[];
  failed: Array<{ ledger: string; code: string; message: string }>;
}

/** The files of each canvas's folder. */
const PAGES = ['index.html', 'comment.md', 'prompt.txt'] as const;

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 16);
}

function sameFiles(dir: string, files: Record<string, string>): boolean {
  try {
    return Object.entries(files).every(([name, h]) => hash(readFileSync(join(dir, name), 'utf8')) === h);
  } catch {
    return false;
  }
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
      if (main) for (const l of await canvasFilesAt(reader, main)) files.add(`${l}.xml`);
    } finally {
      reader.close();
    }
  }
  if (existsSync(ws.repo)) for (const name of readdirSync(ws.repo)) if (name.endsWith('.xml')) files.add(name);
  if (files.size === 0) return;
  const names = [...files].sort();
  throw new CanvasError(
    'NO_CANVAS_FOUND',
    `${ws.repo} holds ${names.length} canvas file(s) (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}) but no commit on main names a canvas: nothing was built`,
    'the files were not committed by the tool; run `canvas verify` to see which commits are not the store\'s',
    { files: names },
  );
}

/**
 * Build the static site (`docs/site.md`): every canvas at its revision to
 * `DIR/<ledger>/index.html`, `comment.md` and `prompt.txt`, plus `DIR/index.html` listing every
 * canvas. Byte-identical output for identical input; incremental through a manifest of what was
 * built from which revision (a canvas whose revision and outputs are unchanged is not rendered
 * again). One bad canvas does not stop the build: it is reported and the rest is built. The
 * build writes only inside a directory that is absent (it makes it), empty, or holds its own
 * manifest, never through a link inside it, and removes the pages of canvases that no longer
 * exist (only the files its manifest lists): docs/site.md, "Where the build writes".
 *
 * @param ws - the workspace
 * @param options - the output directory, the ledgers to build, a progress callback
 * @param renderers - the page, comment, prompt and index renderers
 * @returns what was built, left unchanged, or failed
 * @throws CanvasError `CANVAS_NOT_FOUND` for a `ledgers` entry that is not a canvas;
 *   `OUTPUT_IN_REPOSITORY` for an output directory inside `state/canvas`; `BAD_OUT_DIR` for one
 *   the build may not write (see {@link SiteDir}); each before anything is written
 */
export async function buildSite(ws: Workspace, options: BuildOptions, renderers: SiteRenderers): Promise<BuildReport> {
  const out = resolve(options.out);
  const site = SiteDir.open(ws, out);
  const all = await listCanvases(ws);
  if (all.length === 0) await refuseUnfoundCanvases(ws);
  const wanted = options.ledgers ? new Set(options.ledgers) : null;
  for (const ledger of wanted ?? []) {
    if (!all.some((c) => c.ledger === ledger)) {
      throw new CanvasError('CANVAS_NOT_FOUND', `there is no canvas ${ledger} in ${ws.root}`, 'run `canvas build` without --ledger to build every canvas', {
        ledger,
      });
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
  // Where the build writes (docs/site.md): every path it may write or remove is judged before
  // the first write, so a link or a file it did not make is refused with nothing written.
  const live = new Set(all.map((c) => c.ledger));
  const gone = Object.entries(site.previous?.entries ?? {}).filter(([ledger]) => !live.has(ledger));
  site.check([
    'index.html',
    '.canvas-build.json',
    ...todo.flatMap((c) => PAGES.map((name) => `${c.ledger}/${name}`)),
    ...gone.flatMap(([ledger, e]) => Object.keys(e.files).map((name) => `${ledger}/${name}`)),
  ]);
  site.claim(renderers.version);
  const manifest: SiteManifest = site.previous?.renderer === renderers.version ? site.previous : { renderer: renderers.version, entries: {} };
  // The pages of canvases that no longer exist go: only the files the manifest lists.
  for (const [ledger, e] of gone) {
    site.remove(ledger, Object.keys(e.files));
    delete manifest.entries[ledger];
  }
  const report: BuildReport = { out, built: [], unchanged: [], failed };
  const reader = new RepoReader(ws);
  try {
    let done = 0;
    for (const { ledger, revision } of todo) {
      const previous = manifest.entries[ledger];
      if (previous && previous.revision === revision && sameFiles(join(site.path, ledger), previous.files)) {
        report.unchanged.push(ledger);
      } else {
        try {
          const snapshot = await readSnapshot(ws, { ledger }, reader);
          const files: Record<string, string> = {
            'index.html': await renderers.renderPage(snapshot),
            'comment.md': renderers.renderComment(snapshot),
            'prompt.txt': renderers.renderPrompt(snapshot, {}),
          };
          for (const [name, content] of Object.entries(files)) site.write(`${ledger}/${name}`, content);
          manifest.entries[ledger] = { ...indexEntryOf(snapshot), files: Object.fromEntries(Object.entries(files).map(([n, c]) => [n, hash(c)])) };
          report.built.push(ledger);
        } catch (e) {
          const err = e instanceof CanvasError ? e : new CanvasError('INTERNAL', String((e as Error)?.message ?? e), 'run `canvas verify`');
          report.failed.push({ ledger, code: err.code, message: err.message });
          delete manifest.entries[ledger];
        }
      }
      done += 1;
      options.onProgress?.(done, todo.length, ledger);
    }
  } finally {
    reader.close();
  }
  const entries = all.map((c) => manifest.entries[c.ledger]).filter((e): e is SiteManifest['entries'][string] => e !== undefined);
  site.write('index.html', renderers.renderIndex(entries.map(({ files: _files, ...e }) => e)));
  const sorted: SiteManifest = { renderer: manifest.renderer, entries: Object.fromEntries(Object.keys(manifest.entries).sort().map((k) => [k, manifest.entries[k]!])) };
  site.write('.canvas-build.json', `${JSON.stringify(sorted, null, 2)}\n`);
  return report;
}
