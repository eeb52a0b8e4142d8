/** Characters git strips from both ends of a name or email (ident.c, `crud`). */
function crud(c: number): boolean {
  return c <= 32 || c === 0x2e || c === 0x2c || c === 0x3a || c === 0x3b || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x5c || c === 0x27;
}

/** A name or email as git writes it: crud stripped from both ends, `\n`, `<` and `>` dropped. */
export function withoutCrud(s: string): string {
  const b = Buffer.from(s, 'utf8');
  let start = 0;
  let end = b.length;
  while (start < end && crud(b[start]!)) start += 1;
  while (end > start && crud(b[end - 1]!)) end -= 1;
  const kept: number[] = [];
  for (let i = start; i < end; i += 1) {
    const c = b[i]!;
    if (c !== 0x0a && c !== 0x3c && c !== 0x3e) kept.push(c);
  }
  return Buffer.from(kept).toString('utf8');
}

function zone(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
}

/** Seconds and zone of a date given the way the store's tests and callers give it, or null. */
function parseDate(text: string): { seconds: number; zone: string } | null {
  const offsetOf = (sign: string | undefined, hh: string | undefined, mm: string | undefined): number | null => {
    if (sign === undefined) return 0;
    if (Number(hh) > 14 || Number(mm) > 59) return null;
    return (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  };
  const raw = /^@?(\d{9,11}) ([+-])(\d{2})(\d{2})$/.exec(text);
  if (raw) {
    const offset = offsetOf(raw[2], raw[3], raw[4]);
    return offset === null ? null : { seconds: Number(raw[1]), zone: zone(offset) };
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:Z|([+-])(\d{2}):?(\d{2}))$/.exec(text);
  if (!iso) return null;
  const [, y, mo, d, h, mi, s, sign, zh, zm] = iso;
  const offset = offsetOf(sign, zh, zm);
  if (offset === null || Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000 - offset * 60;
  return { seconds: utc, zone: zone(offset) };
}

/**
 * The identity line git writes for an author or committer (`Name <email> 1767225600 +0000`),
 * computed in process so that a write needs no `git commit-tree`: the name and email cleaned as
 * git cleans them, the date from `GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE` when set (the store keeps
 * those two for tests, docs/store.md "Git's environment"), else now in the local time zone.
 *
 * @param name - the name (for the author, the Canvas-Author text)
 * @param email - the email, possibly empty
 * @param date - the date variable's value, or undefined
 * @param now - the current time
 * @returns the line after `author `/`committer `, or null when the date is in a form only git
 *   itself should parse (the caller then lets `git commit-tree` write the commit)
 */
export function gitIdent(name: string, email: string, date: string | undefined, now: Date): string | null {
  let when: { seconds: number; zone: string } | null;
  if (date === undefined) {
    const seconds = Math.floor(now.getTime() / 1000);
    when = { seconds, zone: zone(-new Date(seconds * 1000).getTimezoneOffset()) };
  } else {
    when = parseDate(date);
  }
  const cleanName = withoutCrud(name);
  if (!when || cleanName === '') return null;
  return `${cleanName} <${withoutCrud(email)}> ${when.seconds} ${when.zone}`;
}
