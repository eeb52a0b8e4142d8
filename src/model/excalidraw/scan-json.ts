// A JSON reader that keeps every token as written (docs/excalidraw.md, "The stored form"): key
// order, duplicate-free keys, numbers and string escapes exactly as the file spells them, so a
// scene can be laid out again with nothing but its whitespace changed. JSON.parse cannot do that:
// it re-orders integer-like keys, keeps the last of two equal keys, and rounds numbers.
import { CanvasError } from '../canvas-error.js';

/** A JSON value with its tokens as written. */
export type JsonToken =
  | { kind: 'object'; entries: { key: string; rawKey: string; value: JsonToken }[] }
  | { kind: 'array'; items: JsonToken[] }
  | { kind: 'string'; raw: string; value: string }
  | { kind: 'number'; raw: string; value: number }
  | { kind: 'literal'; raw: 'true' | 'false' | 'null'; value: boolean | null };

/** The deepest nesting a scene may have, counting the scene object as 1 (docs/excalidraw.md, "Limits"). */
const SCENE_DEPTH = 32;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
const SPACE = /[ \t\n\r]*/y;

/** Where a position falls, as line and column (1-based, columns in UTF-16 units). */
function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line += 1;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

/** The JSON Pointer (RFC 6901) of a place in the scene. */
export function pointer(path: readonly (string | number)[]): string {
  return path.length === 0 ? '/' : path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

class Scanner {
  at = 0;
  constructor(readonly text: string) {}

  fail(message: string, path: readonly (string | number)[], at = this.at): never {
    const { line, column } = lineColumn(this.text, at);
    const where = pointer(path);
    throw new CanvasError(
      'SCENE_JSON',
      `the scene is not JSON: line ${line}, column ${column} (in ${where}): ${message}`,
      'save the scene from Excalidraw again (File, Save to disk), or fix the file where it says (docs/excalidraw.md)',
      { line, column, path: where },
    );
  }

  space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  /** A string token: no control character inside, only JSON's escapes; null when there is none. */
  string(): string | null {
    const { text } = this;
    if (text[this.at] !== '"') return null;
    let i = this.at + 1;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c) || c < 0x20) return null;
      if (c === 0x22) break;
      if (c === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) return null;
        i = ESCAPE.lastIndex;
      } else {
        i += 1;
      }
    }
    const raw = text.slice(this.at, i + 1);
    this.at = i + 1;
    return raw;
  }

  match(re: RegExp): string | null {
    re.lastIndex = this.at;
    const m = re.exec(this.text);
    if (!m) return null;
    this.at = re.lastIndex;
    return m[0];
  }

  value(path: (string | number)[], depth: number): JsonToken {
    this.space();
    const c = this.text[this.at];
    if (c === '{' || c === '[') {
      if (depth >= SCENE_DEPTH) {
        const where = pointer(path);
        throw new CanvasError(
          'SCENE_LIMIT',
          `the scene nests deeper than ${SCENE_DEPTH} levels at ${where}`,
          `flatten what is nested there (custom data, most likely); a scene is at most ${SCENE_DEPTH} levels deep (docs/excalidraw.md, "Limits")`,
          { path: where, limit: SCENE_DEPTH, what: 'depth' },
        );
      }
      return c === '{' ? this.object(path, depth + 1) : this.array(path, depth + 1);
    }
    if (c === '"') {
      const raw = this.string() ?? this.fail('a string that is not closed, or holds a control character or a bad escape', path);
      return { kind: 'string', raw, value: JSON.parse(raw) as string };
    }
    const num = this.match(NUMBER);
    if (num !== null) {
      const value = Number(num);
      return { kind: 'number', raw: num, value };
    }
    for (const raw of ['true', 'false', 'null'] as const) {
      if (this.text.startsWith(raw, this.at)) {
        this.at += raw.length;
        return { kind: 'literal', raw, value: raw === 'null' ? null : raw === 'true' };
      }
    }
    return this.fail(c === undefined ? 'the text ends where a value should be' : `unexpected ${JSON.stringify(c)} where a value should be`, path);
  }

  object(path: (string | number)[], depth: number): JsonToken {
    this.at += 1;
    const entries: { key: string; rawKey: string; value: JsonToken }[] = [];
    const seen = new Set<string>();
    this.space();
    if (this.text[this.at] === '}') {
      this.at += 1;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.space();
      const keyAt = this.at;
      const rawKey = this.string() ?? this.fail('expected a quoted key', path);
      const key = JSON.parse(rawKey) as string;
      if (seen.has(key)) this.fail(`the key ${rawKey} appears twice in this object (a reader would keep only one of them)`, path, keyAt);
      seen.add(key);
      this.space();
      if (this.text[this.at] !== ':') this.fail(`expected ":" after the key ${rawKey}`, path);
      this.at += 1;
      path.push(key);
      const value = this.value(path, depth);
      path.pop();
      entries.push({ key, rawKey, value });
      this.space();
      const c = this.text[this.at];
      this.at += 1;
      if (c === '}') return { kind: 'object', entries };
      if (c !== ',') this.fail('expected "," or "}" after a value in an object', path, this.at - 1);
    }
  }

  array(path: (string | number)[], depth: number): JsonToken {
    this.at += 1;
    const items: JsonToken[] = [];
    this.space();
    if (this.text[this.at] === ']') {
      this.at += 1;
      return { kind: 'array', items };
    }
    for (;;) {
      path.push(items.length);
      items.push(this.value(path, depth));
      path.pop();
      this.space();
      const c = this.text[this.at];
      this.at += 1;
      if (c === ']') return { kind: 'array', items };
      if (c !== ',') this.fail('expected "," or "]" after a value in an array', path, this.at - 1);
    }
  }
}

/**
 * Read a scene's JSON text into tokens kept as written (docs/excalidraw.md, "The stored form").
 * A leading byte order mark is dropped; white space (space, tab, line feed, carriage return)
 * may surround any token.
 *
 * @param text - the scene file's text
 * @returns the top value, every string and number with its raw spelling
 * @throws CanvasError `SCENE_JSON` with `data.line`, `data.column` (1-based) and `data.path` (the
 *   JSON Pointer of the value being read) for text that is not JSON, or an object with the same key
 *   twice; `SCENE_LIMIT` for nesting deeper than {@link SCENE_DEPTH}
 */
export function scanJson(text: string): JsonToken {
  const s = new Scanner(text.startsWith('\ufeff') ? text.slice(1) : text);
  const top = s.value([], 0);
  s.space();
  if (s.at < s.text.length) s.fail(`unexpected ${JSON.stringify(s.text[s.at])} after the scene's closing brace`, []);
  return top;
}
