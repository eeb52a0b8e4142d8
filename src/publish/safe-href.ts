import { SAFE_SCHEMES } from './basecamp-schema.js';

/**
 * Judge a link destination for Basecamp: an absolute `http:`, `https:` or `mailto:` URL, with the
 * scheme judged as the URL parser sees it (trimmed, tabs and newlines removed, case-folded; a
 * percent-encoded scheme is no scheme). Relative links, fragments and every other scheme
 * (`javascript:`, `data:`, `vbscript:`, `file:`) are refused.
 *
 * @param url - the destination as Markdown gave it (entities already decoded by the parser)
 * @returns the normalized URL to put in `href`, or `null` when it must be shown as text
 */
export function safeHref(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (!(SAFE_SCHEMES as readonly string[]).includes(scheme)) return null;
  if (scheme !== 'mailto' && parsed.hostname === '') return null;
  return parsed.href;
}
