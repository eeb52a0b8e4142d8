/** The package's files a page loads, relative to the package's root (or the CDN's copy of it). */
const ENTRY = 'dist/mermaid.esm.min.mjs';
const CHUNKS = 'dist/chunks/mermaid.esm.min/';
const CDN = 'https://cdn.jsdelivr.net/npm/mermaid@12.3.0/';

/**
 * The inline module that starts Mermaid from `url` (the entry's address): the same URL as the
 * integrity-checked script, so the browser reuses the module it fetched; the strict security
 * level set explicitly; only the page's `pre.mermaid` blocks drawn; then each drawing is given
 * its own width, so on a narrow screen it scrolls sideways inside its block rather than shrinking
 * until its labels cannot be read.
 */
function startModule(url: string): string {
  return (
    `import mermaid from '${url}';\n` +
    "mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });\n" +
    "await mermaid.run({ querySelector: 'pre.mermaid' });\n" +
    "for (const svg of document.querySelectorAll('pre.mermaid svg')) {\n" +
    '  const width = svg.viewBox.baseVal?.width;\n' +
    "  if (width) svg.setAttribute('width', String(width));\n" +
    '}\n'
  );
}

/**
 * The one Mermaid build a page may load (`docs/projections.md`, "The page"): an exact version from
 * one CDN, the integrity hash of its entry module, and the chunk folder its entry imports from.
 * Changing the version means changing all of it here, and nowhere else.
 *
 * The SRI was computed from the npm tarball of mermaid 12.3.0 (`npm pack mermaid@12.3.0`,
 * `openssl dgst -sha384 -binary dist/mermaid.esm.min.mjs | openssl base64 -A`); jsDelivr's `/npm/`
 * path serves the published bytes. The integrity covers the entry only: the chunks it imports
 * are admitted by the Content-Security-Policy's path, pinned to the same version.
 */
export const MERMAID_PIN = {
  version: '12.3.0',
  /** The entry module, loaded by `<script type="module" src integrity crossorigin>`. */
  url: `${CDN}${ENTRY}`,
  integrity: 'sha384-m/kS3TjSHDQS5Lf2oK4IERmXlK2HYeKOc6Ur2tuWQqUM1Hv74appp6dbTOsUGlHr',
  /** The folder of the chunks the entry imports (statically and on demand). */
  chunks: `${CDN}${CHUNKS}`,
  /** The entry and the chunk folder inside the package (and inside a site's vendored copy). */
  entry: ENTRY,
  chunkFolder: CHUNKS,
  /**
   * Where `canvas build --vendor-mermaid` puts the package's `dist/` files in the site
   * (docs/site.md, "Mermaid offline"): a name no ledger id can take (ids begin with a letter or
   * digit).
   */
  vendored: '_vendor/mermaid-12.3.0/',
  /** The inline module that starts the CDN's copy; its sha256 goes into the page's script-src. */
  init: startModule(`${CDN}${ENTRY}`),
  startModule,
} as const;
