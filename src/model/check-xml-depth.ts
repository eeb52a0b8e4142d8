import { CanvasError } from './canvas-error.js';

/**
 * The deepest element nesting a canvas may have, counting `<canvas>` as 1 (docs/canonical.md
 * "Size limits"). A canvas needs 6 (canvas, section, section, table, row, cell); the rest is
 * room for an SVG figure's groups.
 */
export const MAX_DEPTH = 64;
/**
 * The deepest nesting of one node, counting the node's own element as 1: a canvas adds at most
 * three levels above a node (canvas, section, section), so a node taken anywhere fits.
 */
export const NODE_DEPTH = MAX_DEPTH - 3;

interface Level {
  step: string;
  counts: Map<string, number>;
}

/** The index after the end of `close` from `from`, or the end of the text when it is missing. */
function skipPast(text: string, from: number, close: string): number {
  const at = text.indexOf(close, from);
  return at < 0 ? text.length : at + close.length;
}

/**
 * Refuse XML that nests elements deeper than {@link MAX_DEPTH}, before anything recursive (the
 * parser, the schema check, the SVG sanitizer) sees it, so depth never becomes a stack overflow.
 * A linear scan of the tags only: comments, CDATA, processing instructions and quoted attribute
 * values are skipped, and anything malformed is left for the parser to refuse.
 *
 * @param text - the XML source
 * @param what - how to name the input, for example `the payload`
 * @param limit - {@link MAX_DEPTH} for a canvas, {@link NODE_DEPTH} for one node
 * @throws CanvasError `TOO_DEEP` with `data.depth` (the limit plus one), `data.limit` and
 *   `data.path` (the first element too deep, `/figure/svg/g[1]/g[1]/...`)
 */
export function checkXmlDepth(text: string, what: string, limit: number): void {
  const stack: Level[] = [];
  const top = new Map<string, number>();
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    const next = text[i + 1];
    if (next === '!') {
      i = text.startsWith('<!--', i) ? skipPast(text, i + 4, '-->') : text.startsWith('<![CDATA[', i) ? skipPast(text, i + 9, ']]>') : skipPast(text, i + 2, '>');
    } else if (next === '?') {
      i = skipPast(text, i + 2, '?>');
    } else if (next === '/') {
      stack.pop();
      i = skipPast(text, i + 2, '>');
    } else {
      let j = i + 1;
      while (j < text.length && !/[\s/>]/.test(text[j]!)) j++;
      const name = text.slice(i + 1, j);
      let quote = '';
      while (j < text.length) {
        const c = text[j]!;
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
        j++;
      }
      const selfClosing = text[j - 1] === '/';
      const counts = stack.length > 0 ? stack[stack.length - 1]!.counts : top;
      const n = (counts.get(name) ?? 0) + 1;
      counts.set(name, n);
      const level: Level = { step: stack.length === 0 ? name : `${name}[${n}]`, counts: new Map() };
      if (stack.length + 1 > limit) {
        const path = `/${[...stack, level].map((l) => l.step).join('/')}`;
        throw new CanvasError(
          'TOO_DEEP',
          `${what} nests elements more than ${limit} deep: ${path} is at depth ${stack.length + 1}`,
          `flatten it: a node nests at most ${NODE_DEPTH} elements deep and a canvas ${MAX_DEPTH}`,
          { depth: stack.length + 1, limit, path },
        );
      }
      if (!selfClosing) stack.push(level);
      i = j + 1;
    }
    i = text.indexOf('<', i);
  }
}
