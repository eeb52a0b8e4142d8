import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import { MERMAID_PIN } from '../render/figures/mermaid-pin.js';
import type { SiteDir } from './site-dir.js';

/** The pinned Mermaid package's files, read from an installed copy, for a site to carry. */
export interface VendoredMermaid {
  /** The package folder they were read from (absolute). */
  from: string;
  /** Each file: its path inside the site (`_vendor/mermaid-12.3.0/dist/…`) and its bytes. */
  files: ReadonlyArray<{ path: string; bytes: Buffer }>;
}

const INSTALL = `npm i --no-save mermaid@${MERMAID_PIN.version}`;

/** The nearest `node_modules/mermaid` from `dir` upwards, as Node itself would find it. */
function installedFrom(dir: string): string | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', 'mermaid');
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(at) === at) return null;
  }
}

function readPackage(folder: string): { name?: unknown; version?: unknown } | null {
  try {
    return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return null;
  }
}

/**
 * Read the pinned Mermaid build from an installed copy of the package (docs/site.md, "Mermaid
 * offline"): its entry module (`dist/mermaid.esm.min.mjs`) and every module of its chunk folder
 * (`dist/chunks/mermaid.esm.min/*.mjs`; source maps are left out). The copy must be the pinned
 * version and its entry must have the pinned integrity hash, so a page loading it checks the same
 * bytes as it would from the CDN; every chunk the entry imports must be there. Writes nothing.
 *
 * @param folder - the package folder (holding its `package.json`), or undefined to take the
 *   nearest `node_modules/mermaid` from `cwd` upwards
 * @param cwd - where the search starts, and what a relative `folder` is relative to
 * @returns the files, with their paths inside the site
 * @throws CanvasError `MERMAID_NOT_FOUND` when there is no Mermaid package there, or it lacks the
 *   entry or a chunk the entry imports; `MERMAID_MISMATCH` when its version or its entry's bytes
 *   are not the pinned ones
 */
export function readVendoredMermaid(folder: string | undefined, cwd: string): VendoredMermaid {
  const from = folder === undefined ? installedFrom(cwd) : resolve(cwd, folder);
  const where = folder === undefined ? `node_modules/mermaid above ${cwd}` : from!;
  const pkg = from === null ? null : readPackage(from);
  if (from === null || pkg === null || pkg.name !== 'mermaid') {
    throw new CanvasError('MERMAID_NOT_FOUND', `--vendor-mermaid: there is no Mermaid package at ${where}`, `install the pinned one (${INSTALL}), or name its folder: --vendor-mermaid DIR`, {
      from: from ?? cwd,
    });
  }
  if (pkg.version !== MERMAID_PIN.version) {
    throw new CanvasError(
      'MERMAID_MISMATCH',
      `--vendor-mermaid: ${from} holds mermaid ${String(pkg.version)}, but the pages are pinned to mermaid ${MERMAID_PIN.version}`,
      `install the pinned version (${INSTALL}), or name a folder holding it: --vendor-mermaid DIR`,
      { from, found: String(pkg.version), pinned: MERMAID_PIN.version },
    );
  }
  const missing = (what: string): CanvasError => new CanvasError('MERMAID_NOT_FOUND', `--vendor-mermaid: ${from} lacks ${what}`, `reinstall the package (${INSTALL})`, { from, path: what });
  let entry: Buffer;
  try {
    entry = readFileSync(join(from, MERMAID_PIN.entry));
  } catch {
    throw missing(MERMAID_PIN.entry);
  }
  const integrity = `sha384-${createHash('sha384').update(entry).digest('base64')}`;
  if (integrity !== MERMAID_PIN.integrity) {
    throw new CanvasError(
      'MERMAID_MISMATCH',
      `--vendor-mermaid: ${join(from, MERMAID_PIN.entry)} is not the pinned build: its hash is ${integrity}, the pages check for ${MERMAID_PIN.integrity}`,
      `reinstall the pinned version (${INSTALL}): the pages would refuse these bytes`,
      { from, found: integrity, pinned: MERMAID_PIN.integrity },
    );
  }
  const chunkDir = join(from, MERMAID_PIN.chunkFolder);
  const names = existsSync(chunkDir)
    ? readdirSync(chunkDir)
        .filter((n) => n.endsWith('.mjs') && statSync(join(chunkDir, n)).isFile())
        .sort()
    : [];
  for (const m of entry.toString('utf8').matchAll(/from"\.\/chunks\/mermaid\.esm\.min\/([^"/]+\.mjs)"/g)) {
    if (!names.includes(m[1]!)) throw missing(`${MERMAID_PIN.chunkFolder}${m[1]}`);
  }
  return {
    from,
    files: [
      { path: `${MERMAID_PIN.vendored}${MERMAID_PIN.entry}`, bytes: entry },
      ...names.map((n) => ({ path: `${MERMAID_PIN.vendored}${MERMAID_PIN.chunkFolder}${n}`, bytes: readFileSync(join(chunkDir, n)) })),
    ],
  };
}

/**
 * Put the vendored files into the site (docs/site.md, "Mermaid offline"), each written as the
 * site writes every file, unless the site already holds exactly those bytes there. The paths
 * were judged with the build's others before the first write.
 *
 * @param site - the build's output directory, already claimed
 * @param mermaid - the files, from {@link readVendoredMermaid}
 * @returns the pinned version, how many files the site carries, and how many were written now
 * @throws CanvasError `BAD_OUT_DIR` when a file cannot be written
 */
export function writeVendoredMermaid(site: SiteDir, mermaid: VendoredMermaid): { mermaid: string; files: number; written: number } {
  let written = 0;
  for (const { path, bytes } of mermaid.files) {
    const target = join(site.path, path);
    const same = existsSync(target) && statSync(target).size === bytes.length && readFileSync(target).equals(bytes);
    if (same) continue;
    site.write(path, bytes);
    written += 1;
  }
  return { mermaid: MERMAID_PIN.version, files: mermaid.files.length, written };
}
