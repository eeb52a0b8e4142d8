import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../model/package-name.js';
import { MERMAID_PIN } from '../render/figures/mermaid-pin.js';

function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    const up = dirname(dir);
    if (up === dir) return dirname(fileURLToPath(import.meta.url));
    dir = up;
  }
}

function hashTree(hash: ReturnType<typeof createHash>, dir: string, root: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hashTree(hash, p, root);
    else hash.update(`${p.slice(root.length)}\n`).update(readFileSync(p));
  }
}

/**
 * The renderers' version (docs/site.md, "Incremental"): a hash of the templates and of the code
 * that renders (the bundled CLI's files when running from `dist/`, through the hash of them
 * `scripts/build.js` writes to `dist/cli/bundles.sha256`; the renderer sources otherwise), so any
 * change to either rebuilds every page. It loads no renderer: a build that finds nothing to
 * render never imports one. Pages loading the site's own copy of Mermaid (`vendoredMermaid`,
 * docs/site.md "Mermaid offline") are another version than pages loading the CDN's, so switching
 * `--vendor-mermaid` on or off rebuilds every page.
 *
 * @param options - `vendoredMermaid`: whether the pages load the site's own Mermaid
 * @returns 16 hex digits
 */
export function rendererVersion(options: { vendoredMermaid?: boolean } = {}): string {
  const root = packageRoot();
  const here = fileURLToPath(import.meta.url);
  const hash = createHash('sha256');
  hashTree(hash, join(root, 'templates'), root);
  if (here.includes(`${join('dist', 'cli')}`)) {
    const bundles = join(dirname(here), 'bundles.sha256');
    if (existsSync(bundles)) hash.update(readFileSync(bundles));
    else hashTree(hash, dirname(here), root);
  } else hashTree(hash, join(root, 'src', 'render'), root);
  if (options.vendoredMermaid) hash.update(`mermaid ../${MERMAID_PIN.vendored}\n`);
  return hash.digest('hex').slice(0, 16);
}
