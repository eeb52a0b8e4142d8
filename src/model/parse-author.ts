import { CanvasError } from './canvas-error.js';
import { AUTHOR_PART } from './patterns.js';

/** An author (docs/store.md "Writes"): `who[ | step:S][ | run:R]` or `who | by-hand`. */
export interface Author {
  who: string;
  step?: string;
  run?: string;
  byHand?: true;
  /** The canonical text, as written in `Canvas-Author`. */
  text: string;
}

/**
 * Parse and check an author string (docs/store.md "Author"). The text must be written exactly in
 * the documented form, one space each side of every `|` and nothing around it: a form that only
 * normalizes to it (`" leo"`, `leo|step:x`) is refused with the form it should take, never
 * normalized, as every other malformed input is refused.
 *
 * @param text - for example `leo | step:implement | run:ship-the-flag-3` or `leo | by-hand`
 * @returns the parts and the canonical text
 * @throws CanvasError `BAD_AUTHOR` naming the part that does not match
 */
export function parseAuthor(text: unknown): Author {
  const hint = 'pass --author "<who>[ | step:<step>][ | run:<run>]" or "<who> | by-hand", or set CANVAS_AUTHOR';
  if (text !== undefined && typeof text !== 'string') {
    throw new CanvasError('BAD_AUTHOR', `an author is a string, not ${text === null ? 'null' : typeof text}`, hint, { rule: 'required' });
  }
  if (text === undefined || text.trim() === '') {
    throw new CanvasError('BAD_AUTHOR', 'an author is required', hint, { rule: 'required' });
  }
  const parts = text.split('|').map((p) => p.trim());
  const who = parts[0] ?? '';
  if (!AUTHOR_PART.test(who)) {
    throw new CanvasError('BAD_AUTHOR', `author ${JSON.stringify(text)}: who ${JSON.stringify(who)} does not match ^[A-Za-z0-9][A-Za-z0-9._@:-]*$`, hint, {
      rule: 'who',
    });
  }
  const author: Author = { who, text: who };
  const rest = parts.slice(1);
  if (rest.length === 1 && rest[0] === 'by-hand') {
    return asWritten(text, { who, byHand: true, text: `${who} | by-hand` }, hint);
  }
  let expect: 'step' | 'run' = 'step';
  for (const part of rest) {
    const m = /^(step|run):(.*)$/.exec(part);
    const key = m?.[1] as 'step' | 'run' | undefined;
    const value = m?.[2] ?? '';
    if (!key || (key === 'step' && expect === 'run') || author[key] !== undefined || !AUTHOR_PART.test(value)) {
      throw new CanvasError('BAD_AUTHOR', `author ${JSON.stringify(text)}: ${JSON.stringify(part)} is not step:<step> or run:<run> in that order`, hint, {
        rule: 'parts',
      });
    }
    author[key] = value;
    expect = 'run';
  }
  author.text = [who, author.step ? `step:${author.step}` : '', author.run ? `run:${author.run}` : ''].filter(Boolean).join(' | ');
  return asWritten(text, author, hint);
}

/** The author, if `text` is exactly its canonical form; else `BAD_AUTHOR` naming that form. */
function asWritten(text: string, author: Author, hint: string): Author {
  if (text === author.text) return author;
  throw new CanvasError(
    'BAD_AUTHOR',
    `author ${JSON.stringify(text)} is not written in the form <who>[ | step:<step>][ | run:<run>] or <who> | by-hand: one space each side of every "|", nothing before or after`,
    `write it as ${JSON.stringify(author.text)}; ${hint}`,
    { rule: 'form', expected: author.text },
  );
}
