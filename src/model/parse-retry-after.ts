/**
 * Read an HTTP `Retry-After` value (RFC 9110, section 10.2.3) as milliseconds to wait: delta-seconds
 * or an HTTP date, a date in the past being 0. Both remote clients (the Basecamp publisher and the
 * coherence checker's model client) honour a 429's `Retry-After` this way (docs/basecamp.md,
 * "Talking to Basecamp"; docs/coherence.md, "Failures").
 *
 * @param value - the header's value, `null` or `undefined` when absent
 * @param now - the current time in ms since the epoch (what an HTTP date is measured against)
 * @returns ms to wait, or `null` when absent or unreadable
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^[0-9]+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
