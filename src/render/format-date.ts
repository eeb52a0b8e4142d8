/**
 * Show a commit date the same way in every projection: `YYYY-MM-DD HH:MM UTC`.
 *
 * @param iso - an ISO 8601 UTC date, as a snapshot carries it
 * @returns the date for a reader
 */
export function formatDate(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
