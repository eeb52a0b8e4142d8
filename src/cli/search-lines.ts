import { shortSha } from '../render/short-sha.js';
import type { SearchHit, SearchResponse } from '../store/search/search-canvases.js';
import { MATCH_MARKER } from '../store/search/search-snippet.js';

// What `canvas search` prints for a reader (docs/cli.md, "search"): its own module, loaded when
// search runs.

/** The snippet with each mark shown: in bold colour on a terminal, else between the plain markers. */
function shownSnippet(hit: SearchHit, color: boolean): string {
  if (!color) return hit.snippet;
  let out = '';
  let at = 0;
  for (const [start, end] of hit.marks) {
    out += `${hit.snippet.slice(at, start - MATCH_MARKER.length)}\u001b[1;33m${hit.snippet.slice(start, end)}\u001b[0m`;
    at = end + MATCH_MARKER.length;
  }
  return out + hit.snippet.slice(at);
}

/**
 * The hits as text: per hit a line `<ledger> <node> <type>  base <short revision>` and the snippet
 * under it, then the count; canvases that could not be read are named at the end.
 *
 * @param found - what `searchCanvases` returned
 * @param color - whether to colour the matches (else the plain markers stay)
 * @returns the text, ending in a line feed
 */
export function searchLines(found: SearchResponse, color: boolean): string {
  const lines: string[] = [];
  for (const h of found.hits) lines.push(`${h.ledger} ${h.node} ${h.type}  base ${shortSha(h.revision)}`, `  ${shownSnippet(h, color)}`);
  const of = `${found.canvases} ${found.canvases === 1 ? 'canvas' : 'canvases'}`;
  if (found.total === 0) lines.push(`No node matches ${JSON.stringify(found.query)} in ${of}.`);
  else lines.push('', found.total > found.hits.length ? `${found.hits.length} of ${found.total} hits in ${of} (--limit N for more)` : `${found.total} ${found.total === 1 ? 'hit' : 'hits'} in ${of}`);
  for (const f of found.failures) lines.push(`${f.ledger} ${shortSha(f.revision)} cannot be read: ${f.error.code}: ${f.error.message}`);
  return `${lines.join('\n')}\n`;
}
