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
  url: 'https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/mermaid.esm.min.mjs',
  integrity: 'sha384-m/kS3TjSHDQS5Lf2oK4IERmXlK2HYeKOc6Ur2tuWQqUM1Hv74appp6dbTOsUGlHr',
  /** The folder of the chunks the entry imports (statically and on demand). */
  chunks: 'https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/chunks/mermaid.esm.min/',
  /**
   * The inline module that starts it: the same URL, so the browser reuses the module the
   * integrity-checked script fetched; the strict security level set explicitly; only the page's
   * `pre.mermaid` blocks drawn. Its sha256 goes into the page's script-src.
   */
  init:
    "import mermaid from 'https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/mermaid.esm.min.mjs';\n" +
    "mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });\n" +
    "await mermaid.run({ querySelector: 'pre.mermaid' });\n",
} as const;
