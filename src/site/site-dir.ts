import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, type Stats, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { isLedgerId } from '../model/check-ledger-id.js';
import { insideRepository, type Workspace } from '../store/index.js';
import { type ManifestHead, PAGE_FILES, type SiteManifest } from './site-types.js';
import { writeSiteFile } from './write-site-file.js';

/** The build's manifest, at the top of the output directory. */
const MANIFEST = '.canvas-build.json';

/** The files of one canvas's folder: the only names a manifest entry may list. */
const PAGE_NAMES: ReadonlySet<string> = new Set(PAGE_FILES);

function refuse(out: string, message: string, hint: string, data: Record<string, unknown> = {}): CanvasError {
  return new CanvasError('BAD_OUT_DIR', `--out ${out} ${message}`, hint, { out, ...data });
}

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a directory';
  if (st.isFile()) return 'a regular file';
  return 'neither a file nor a directory';
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** A head line this build wrote: the renderers, each canvas's revision, the links' key and warnings. */
function headOf(text: string): ManifestHead | null {
  let h: unknown;
  try {
    h = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof h !== 'object' || h === null || Array.isArray(h)) return null;
  const { renderer, revisions, index, links, warnings } = h as Record<string, unknown>;
  if (typeof renderer !== 'string' || typeof index !== 'string' || typeof links !== 'string' || !Array.isArray(warnings)) return null;
  if (!Array.isArray(revisions)) return null;
  for (const pair of revisions) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || !isLedgerId(pair[0]) || typeof pair[1] !== 'string') return null;
  }
  return h as ManifestHead;
}

/** A manifest this build wrote: its shape, ledger ids as keys, and only the page files listed. */
function manifestOf(text: string): SiteManifest | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return null;
  const { renderer, entries } = m as Record<string, unknown>;
  if (typeof renderer !== 'string' || typeof entries !== 'object' || entries === null || Array.isArray(entries)) return null;
  for (const [ledger, entry] of Object.entries(entries)) {
    if (!isLedgerId(ledger) || typeof entry !== 'object' || entry === null) return null;
    const files = (entry as Record<string, unknown>).files;
    if (typeof files !== 'object' || files === null || Object.keys(files).some((name) => !PAGE_NAMES.has(name))) return null;
  }
  return m as SiteManifest;
}

/**
 * A manifest's two parts (docs/site.md, "Incremental"): a first line holding the head and a second
 * holding the entries, left unparsed; or, written by a build before the head existed (one line
 * of entries) or with a head of another shape, the entries parsed now and no head. Null when it
 * is not a build manifest.
 */
function manifestText(text: string): { head: ManifestHead | null; entries: string | null; parsed?: SiteManifest } | null {
  const nl = text.indexOf('\n');
  if (nl >= 0 && nl < text.length - 1) {
    const head = headOf(text.slice(0, nl));
    if (head !== null) return { head, entries: text.slice(nl + 1) };
    // A head of another shape is only a head: the entries decide, and the next build writes it anew.
    const parsed = manifestOf(text.slice(nl + 1));
    return parsed === null ? null : { head: null, entries: null, parsed };
  }
  const parsed = manifestOf(text);
  return parsed === null ? null : { head: null, entries: null, parsed };
}

/**
 * The site build's output directory (docs/site.md, "Where the build writes"). The build writes
 * only inside a directory that is absent (it makes it), empty, or holds the build's own manifest;
 * it never follows a link inside it, and writes each file as a private file created afresh beside
 * it and renamed into place. It removes only files its own manifest lists.
 */
export class SiteDir {
  /** The output directory, as a real path. */
  readonly path: string;
  /**
   * The manifest's head line (docs/site.md, "Incremental"), when the manifest has one: what a
   * build needs to find that nothing changed without reading every entry.
   */
  readonly head: ManifestHead | null;
  private readonly given: string;
  private absent: boolean;
  /** Whether the directory holds a build manifest. */
  private readonly found: boolean;
  /** The manifest's text of entries, read when first asked for (see {@link SiteDir.previous}). */
  private entriesText: string | null;
  private parsed: SiteManifest | null | undefined;

  private constructor(given: string, path: string, found: { head: ManifestHead | null; entries: string | null; parsed?: SiteManifest } | null, absent: boolean) {
    this.given = given;
    this.path = path;
    this.head = found?.head ?? null;
    this.entriesText = found?.entries ?? null;
    this.parsed = found === null ? null : found.parsed;
    this.found = found !== null;
    this.absent = absent;
  }

  /**
   * The manifest found there (of any renderer version), or null for a new or empty directory:
   * its entries are parsed the first time they are asked for.
   *
   * @throws CanvasError `BAD_OUT_DIR` when the entries are not a build manifest's
   */
  get previous(): SiteManifest | null {
    if (this.parsed === undefined) {
      this.parsed = manifestOf(this.entriesText ?? '');
      this.entriesText = null;
      if (this.parsed === null) throw this.notOurs('a regular file');
    }
    return this.parsed;
  }

  private notOurs(kind: string): CanvasError {
    return refuse(
      this.given,
      `holds a ${MANIFEST} (${kind}) that is not a build manifest: the build writes only into a directory that is empty, absent, or holds its own manifest`,
      'name a new or empty directory for the site',
      { path: MANIFEST },
    );
  }

  /**
   * Judge an output directory, writing nothing. The directory itself may be reached through a
   * link (the caller named it); nothing inside it is followed.
   *
   * @param ws - the workspace, whose repository the site must stay out of
   * @param out - the `--out` path, absolute or relative to the current directory
   * @throws CanvasError `OUTPUT_IN_REPOSITORY` for a path inside `state/canvas`; `BAD_OUT_DIR`
   *   for a path that is not a directory, a directory that holds files but no build manifest, or
   *   a manifest the build did not write
   */
  static open(ws: Workspace, out: string): SiteDir {
    const given = resolve(out);
    if (insideRepository(ws, given)) {
      throw new CanvasError(
        'OUTPUT_IN_REPOSITORY',
        `--out ${given} is inside the canvas repository ${ws.repo}: the site there would make the working tree dirty and block the next write`,
        'build the site outside state/canvas, for example --out site',
        { out: given, repo: ws.repo },
      );
    }
    let st: Stats;
    try {
      st = statSync(given);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new SiteDir(given, given, null, true);
      throw refuse(given, `cannot be used: ${(e as Error).message}`, 'name a directory for the site, for example --out site');
    }
    if (!st.isDirectory()) {
      throw refuse(given, `exists and is ${kindOf(st)}, not a directory`, 'name a directory for the site, for example --out site');
    }
    const path = realpathSync(given);
    if (readdirSync(path).length === 0) return new SiteDir(given, path, null, false);
    const manifest = lstatOrNull(join(path, MANIFEST));
    const notOurs = 'the build writes only into a directory that is empty, absent, or holds its own manifest';
    if (manifest === null) {
      throw refuse(given, `holds files and no ${MANIFEST}: ${notOurs}`, 'name a new or empty directory for the site, for example --out site', { path: MANIFEST });
    }
    const found = manifest.isFile() ? manifestText(readFileSync(join(path, MANIFEST), 'utf8')) : null;
    if (found === null) {
      throw refuse(given, `holds a ${MANIFEST} (${kindOf(manifest)}) that is not a build manifest: ${notOurs}`, 'name a new or empty directory for the site', {
        path: MANIFEST,
      });
    }
    return new SiteDir(given, path, found, false);
  }

  /**
   * Check, writing nothing, that each path may be written or removed: every directory on the way
   * down from the output directory is a real directory or absent, and the file a regular file or
   * absent. Run before the first write, so a refusal leaves the directory as it was.
   *
   * @param paths - paths relative to the output directory, `/`-separated (`r/index.html`)
   * @throws CanvasError `BAD_OUT_DIR` naming the first link or odd entry (`data.path`)
   */
  check(paths: Iterable<string>): void {
    if (this.absent) return;
    for (const rel of paths) {
      const parts = rel.split('/');
      for (let i = 0; i < parts.length; i++) {
        const at = parts.slice(0, i + 1).join('/');
        const st = lstatOrNull(join(this.path, at));
        if (st === null) break;
        const last = i === parts.length - 1;
        if (last ? st.isFile() : st.isDirectory()) continue;
        throw refuse(
          this.given,
          `holds ${at}, which is ${kindOf(st)} where the build needs ${last ? 'a regular file' : 'a directory'}: the build never writes through a link or over what it did not make`,
          `move ${join(this.path, at)} away, or name a new directory for the site`,
          { path: at, found: kindOf(st) },
        );
      }
    }
  }

  /**
   * Make the directory the build's: create it when absent, and mark a new or empty one with an
   * empty manifest before any page, so a build cut short leaves a directory the next build knows.
   *
   * @param renderer - the renderers' version, recorded in the manifest
   * @throws CanvasError `BAD_OUT_DIR` when the directory cannot be made or written
   */
  claim(renderer: string): void {
    if (this.found) return;
    try {
      if (this.absent) mkdirSync(this.path, { recursive: true });
      this.absent = false;
    } catch (e) {
      throw refuse(this.given, `cannot be made: ${(e as Error).message}`, 'name a directory you may write, for example --out site');
    }
    this.write(MANIFEST, `${JSON.stringify({ renderer, entries: {} } satisfies SiteManifest)}\n`);
  }

  /**
   * Write one file atomically: a private file created afresh beside it (never opened through
   * whatever was at its name), renamed into place; a missing canvas folder is made.
   *
   * @param rel - the path relative to the output directory (`index.html`, `r/comment.md`)
   * @param content - the text (UTF-8), or bytes
   * @throws CanvasError `BAD_OUT_DIR` when the path holds a link or odd entry, or cannot be written
   */
  write(rel: string, content: string | Uint8Array): void {
    this.check([rel]);
    const slash = rel.lastIndexOf('/');
    try {
      // The folders on the way were judged by check(): each is a real directory or absent.
      if (slash > 0 && lstatOrNull(join(this.path, rel.slice(0, slash))) === null) mkdirSync(join(this.path, rel.slice(0, slash)), { recursive: true });
    } catch (e) {
      throw refuse(this.given, `cannot be written (${rel}): ${(e as Error).message}`, 'free some space or fix the permissions, then build again', { path: rel });
    }
    writeSiteFile(this.path, this.given, rel, content);
  }

  /** The output directory as the caller named it (for messages). */
  get named(): string {
    return this.given;
  }

  /**
   * Remove the pages of a canvas the manifest lists: only the files it names, then the canvas's
   * folder when nothing else is left in it.
   *
   * @param ledger - the canvas whose pages go
   * @param files - the file names its manifest entry lists
   */
  remove(ledger: string, files: Iterable<string>): void {
    const names = [...files].filter((name) => PAGE_NAMES.has(name));
    this.check(names.map((name) => `${ledger}/${name}`));
    for (const name of names) rmSync(join(this.path, ledger, name), { force: true });
    try {
      rmdirSync(join(this.path, ledger));
    } catch {
      // Not empty (something the build did not make stays), or already gone.
    }
  }
}
