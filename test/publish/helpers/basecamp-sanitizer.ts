// The test server's own idea of Basecamp's rich text cleaning, written apart from the publisher's
// schema on purpose: parse the HTML as a browser would (parse5), keep the documented tags
// (bc3-api sections/rich_text.md) with `href` on `a` only (no javascript: or other scheme), drop
// script-like elements whole, unwrap every other element to its children, drop comments.
import type { ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';

const KEEP = new Set(['div', 'h1', 'br', 'strong', 'em', 'strike', 'a', 'pre', 'ol', 'ul', 'li', 'blockquote', 'bc-attachment']);
const DROP = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'head', 'title', 'textarea', 'svg', 'math']);

function hrefOk(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const scheme = /^\s*([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value.replace(/[\u0000-\u001f]/g, ''));
  return scheme !== null && ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}

function clean(nodes: readonly RootContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  for (const n of nodes) {
    if (n.type === 'text') out.push({ type: 'text', value: n.value });
    else if (n.type === 'element') {
      if (DROP.has(n.tagName)) continue;
      if (!KEEP.has(n.tagName)) {
        out.push(...clean(n.children));
        continue;
      }
      const properties: Record<string, string> = {};
      if (n.tagName === 'a' && hrefOk(n.properties.href)) properties.href = n.properties.href;
      if (n.tagName === 'bc-attachment' && typeof n.properties.sgid === 'string') properties.sgid = n.properties.sgid;
      out.push({ type: 'element', tagName: n.tagName, properties, children: clean(n.children) });
    }
  }
  return out;
}

/** Clean rich text the way the test server stands in for Basecamp: what survives is what is stored. */
export function basecampSanitize(html: string): string {
  const tree = fromHtml(html, { fragment: true });
  const root: Root = { type: 'root', children: clean(tree.children) };
  return toHtml(root);
}
