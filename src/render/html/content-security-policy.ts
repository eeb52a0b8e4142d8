import { createHash } from 'node:crypto';
import type { Element, Root, RootContent } from 'hast';
import { MERMAID_PIN } from '../figures/mermaid-pin.js';

/** The last hashes made: every page of a site inlines the same stylesheet and scripts. */
const recent = new Map<string, string>();

function sha256(text: string): string {
  let source = recent.get(text);
  if (source === undefined) {
    source = `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    if (recent.size >= 16) recent.clear();
    recent.set(text, source);
  }
  return source;
}

function textOf(el: Element): string {
  return el.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
}

/** A path on the page's own origin (`/x`, never `//host/x`). */
function sameOrigin(v: unknown): boolean {
  return typeof v === 'string' && v.startsWith('/') && !v.startsWith('//');
}

function walk(node: Root | RootContent, visit: (el: Element) => void): void {
  if (node.type === 'element') visit(node);
  if ('children' in node) for (const c of node.children) walk(c, visit);
}

/**
 * Derive the page's Content-Security-Policy from the page itself (`docs/projections.md`, "The
 * page"): it allows only what the tree uses. `default-src 'none'`; `style-src` the sha256 of each
 * inline stylesheet (and of each style attribute, with `'unsafe-hashes'`, should a drawing carry
 * one); `img-src data:` only when an image uses a data URL; `script-src` only on a page with a
 * script: the hash of each inline script (the index's own script, Mermaid's start-up module) and,
 * on a page with a Mermaid figure, the pinned entry URL and its pinned chunk folder, or `'self'`
 * when the site carries its own copy (the entry is still integrity-checked); a Mermaid page's
 * `style-src` is `'unsafe-inline'`, because Mermaid injects styles that cannot be hashed ahead of
 * time (a hash in the same directive would switch `'unsafe-inline'` off). `base-uri` and
 * `form-action` are closed too (`default-src` does not cover them). A page served
 * live (docs/serve.md, "The pages") loads the server's own script and stylesheet by path: they
 * are admitted as `'self'`, and the script may then talk to its server (`connect-src 'self'`);
 * its caller passes `mermaid: true` for every live page, since an update may bring a Mermaid
 * figure for the script to draw.
 *
 * @param tree - the finished page, without the CSP meta
 * @param options - `mermaid`: whether the page loads the Mermaid module; `vendored`: whether it
 *   loads the site's own copy of it (docs/site.md, "Mermaid offline") rather than the CDN's
 * @returns the policy string for `<meta http-equiv="Content-Security-Policy">`
 */
export function contentSecurityPolicy(tree: Root, options: { mermaid: boolean; vendored?: boolean }): string {
  const styleHashes = new Set<string>();
  const attrHashes = new Set<string>();
  const scriptHashes = new Set<string>();
  let dataImages = false;
  let selfScript = false;
  let selfStyle = false;
  walk(tree, (el) => {
    if (el.tagName === 'script' && sameOrigin(el.properties.src)) selfScript = true;
    if (el.tagName === 'link' && sameOrigin(el.properties.href) && String(el.properties.rel) === 'stylesheet') selfStyle = true;
    if (el.tagName === 'style') styleHashes.add(sha256(textOf(el)));
    if (el.tagName === 'script' && el.properties.src === undefined) scriptHashes.add(sha256(textOf(el)));
    const style = el.properties.style;
    if (typeof style === 'string') attrHashes.add(sha256(style));
    for (const key of ['src', 'href', 'xLinkHref']) {
      const v = el.properties[key];
      if ((el.tagName === 'img' || el.tagName === 'image') && typeof v === 'string' && /^\s*data:/i.test(v)) dataImages = true;
    }
  });
  const directives = ["default-src 'none'"];
  const self = (on: boolean) => (on ? ["'self'"] : []);
  if (options.mermaid) {
    directives.push(['style-src', ...self(selfStyle), "'unsafe-inline'"].join(' '));
  } else if (styleHashes.size > 0 || attrHashes.size > 0 || selfStyle) {
    const sources = [...self(selfStyle), ...[...styleHashes].sort()];
    if (attrHashes.size > 0) sources.push("'unsafe-hashes'", ...[...attrHashes].sort());
    directives.push(`style-src ${sources.join(' ')}`);
  }
  if (dataImages) directives.push('img-src data:');
  const vendored = options.mermaid && options.vendored === true;
  const mermaidSources = options.mermaid && !vendored ? [MERMAID_PIN.url, MERMAID_PIN.chunks] : [];
  const scripts = [...self(selfScript || vendored), ...[...scriptHashes].sort(), ...mermaidSources];
  if (scripts.length > 0) directives.push(`script-src ${scripts.join(' ')}`);
  if (selfScript) directives.push("connect-src 'self'");
  directives.push("base-uri 'none'", "form-action 'none'");
  return directives.join('; ');
}
