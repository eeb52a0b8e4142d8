import { diagramError } from './diagram-error.js';
import { DIAGRAM_LIMITS, type DiagramPosition } from './diagram-types.js';

/** One token of a diagram source. */
export interface DiagramToken {
  kind: 'word' | 'string' | 'arrow' | 'dash' | 'open' | 'close' | 'newline' | 'eof';
  /** The word, or the decoded string; empty for the other kinds. */
  value: string;
  line: number;
  column: number;
}

const WORD = /^[A-Za-z0-9_]$/;
const SPACE = /^[ \t]$/;
/** Control characters a label may not hold (C0 including tab, DEL, C1, line and paragraph separators). */
const LABEL_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/u;

/**
 * Split a diagram source into tokens on demand, so the first error in source order is the one
 * reported. Spaces and tabs separate tokens; `#` starts a comment that runs to the end of the line;
 * CR LF and a lone CR end a line like LF.
 */
export class DiagramLexer {
  private readonly chars: string[];
  private index = 0;
  private line = 1;
  private column = 1;
  private peeked: DiagramToken | null = null;

  constructor(source: string) {
    this.chars = Array.from(source);
  }

  /** The next token, without consuming it. */
  peek(): DiagramToken {
    this.peeked ??= this.scan();
    return this.peeked;
  }

  /** The next token, consumed. */
  next(): DiagramToken {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  private advance(): string {
    const c = this.chars[this.index++]!;
    if (c === '\n' || (c === '\r' && this.chars[this.index] !== '\n')) {
      this.line += 1;
      this.column = 1;
    } else if (c !== '\r') {
      this.column += 1;
    }
    return c;
  }

  private scan(): DiagramToken {
    for (;;) {
      const c = this.chars[this.index];
      if (c === undefined) return this.token('eof', '');
      if (SPACE.test(c)) {
        this.advance();
      } else if (c === '#') {
        while (this.index < this.chars.length && this.chars[this.index] !== '\n' && this.chars[this.index] !== '\r') this.advance();
      } else {
        break;
      }
    }
    const at: DiagramPosition = { line: this.line, column: this.column };
    const c = this.chars[this.index]!;
    if (c === '\n' || c === '\r') {
      this.advance();
      if (c === '\r' && this.chars[this.index] === '\n') this.advance();
      return { kind: 'newline', value: '', ...at };
    }
    if (WORD.test(c)) {
      let value = '';
      while (this.index < this.chars.length && WORD.test(this.chars[this.index]!)) value += this.advance();
      return { kind: 'word', value, ...at };
    }
    if (c === '"') return this.scanString(at);
    if (c === '{' || c === '}') {
      this.advance();
      return { kind: c === '{' ? 'open' : 'close', value: '', ...at };
    }
    if (c === '-') {
      this.advance();
      const d = this.chars[this.index];
      if (d === '>' || d === '-') {
        this.advance();
        return { kind: d === '>' ? 'arrow' : 'dash', value: '', ...at };
      }
      throw diagramError(at, 'a lone "-": an edge is "->" (with an arrowhead) or "--" (without)', 'write A -> B or A -- B');
    }
    throw diagramError(at, `unexpected character ${describeChar(c)}`, 'node ids are letters, digits and _; labels go in double quotes');
  }

  private scanString(at: DiagramPosition): DiagramToken {
    this.advance();
    let value = '';
    let length = 0;
    for (;;) {
      const c = this.chars[this.index];
      if (c === undefined || c === '\n' || c === '\r') {
        throw diagramError(at, 'this label has no closing "', 'end the label with " on the same line; write \\" for a quote inside it');
      }
      const here: DiagramPosition = { line: this.line, column: this.column };
      this.advance();
      if (c === '"') break;
      if (c === '\\') {
        const e = this.chars[this.index];
        if (e !== '"' && e !== '\\') {
          const shown = e === undefined || e === '\n' || e === '\r' ? 'at the end of the line' : `"\\${e}"`;
          throw diagramError(here, `unknown escape ${shown}: a label knows only \\" and \\\\`, 'write \\\\ for a backslash and \\" for a quote');
        }
        value += this.advance();
      } else {
        if (LABEL_CONTROL.test(c)) {
          throw diagramError(here, `a label holds no control character (found ${describeChar(c)})`, 'remove it; a label is one line of text');
        }
        value += c;
      }
      length += 1;
    }
    if (value.trim() === '') throw diagramError(at, 'an empty label', 'write some text between the quotes, or leave the label out');
    if (length > DIAGRAM_LIMITS.labelLength) {
      throw diagramError(at, `a label of ${length} characters; the limit is ${DIAGRAM_LIMITS.labelLength}`, 'shorten the label');
    }
    return { kind: 'string', value, ...at };
  }

  private token(kind: DiagramToken['kind'], value: string): DiagramToken {
    return { kind, value, line: this.line, column: this.column };
  }
}

function describeChar(c: string): string {
  const cp = c.codePointAt(0)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? code : `"${c}" (${code})`;
}
