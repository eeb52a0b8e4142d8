import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteRenderers } from './build-site.js';
import { PACKAGE_NAME } from '../model/package-name.js';

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
 * Load the renderers the site build uses (lazily: only `canvas build` pays for them) and compute
 * their version: a hash of the templates and of the code that renders (the bundled CLI's files
 * when running from `dist/`, the renderer sources otherwise), so any change to either rebuilds
 * every page.
 */
export async function loadRenderers(): Promise<SiteRenderers> {
  const [{ renderPage }, { preparePage }, { renderComment }, { renderPrompt }, { renderIndex }, { readTemplate }] = await Promise.all([
    import('../render/html/render-page.js'),
    import('../render/html/prepare-page.js'),
    import('../render/comment/render-comment.js'),
    import('../render/text/render-prompt.js'),
    import('../render/html/render-index.js'),
    import('../render/html/read-template.js'),
  ]);
  const indexCss = `${await readTemplate('page.css')}\n${await readTemplate('index.css')}`;
  const root = packageRoot();
  const here = fileURLToPath(import.meta.url);
  const hash = createHash('sha256');
  hashTree(hash, join(root, 'templates'), root);
  if (here.includes(`${join('dist', 'cli')}`)) hashTree(hash, dirname(here), root);
  else hashTree(hash, join(root, 'src', 'render'), root);
  return {
    renderPage: async (snapshot) => renderPage(snapshot, await preparePage(snapshot)),
    renderComment,
    renderPrompt,
    renderIndex: (entries) => renderIndex(entries, indexCss),
    version: hash.digest('hex').slice(0, 16),
  };
}
