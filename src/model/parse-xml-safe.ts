import type { Root } from 'xast';
import { fromXml } from 'xast-util-from-xml';
import { badCharacterError } from './bad-character.js';
import { CanvasError } from './canvas-error.js';
import { checkXmlDepth, MAX_DEPTH } from './check-xml-depth.js';

/**
 * Parse XML text into a xast tree, safely: a DOCTYPE, a processing instruction (the XML
 * declaration included), a comment, or an entity reference beyond the five predefined and numeric
 * ones is refused, never expanded (docs/schema.md). CRLF and CR are normalized to LF by the
 * parser, as XML itself does.
 *
 * @param text - the XML source (a whole canvas or one node fragment)
 * @param what - how to name the input in messages, for example `payload` or `canvas my-task`
 * @param depthLimit - the deepest nesting allowed: `MAX_DEPTH` for a canvas (the default),
 *   `NODE_DEPTH` for a node
 * @returns the xast root, whose only element child is the document element
 * @throws CanvasError `XML_PARSE` (malformed, with line and column), `UNSAFE_XML` (DOCTYPE,
 *   unknown entity, processing instruction, comment), `SCHEMA` (a character a canvas cannot hold,
 *   raw or as a numeric reference: its code point and node path, as for `--text`), `TOO_DEEP`
 *   (elements nested deeper than docs/canonical.md "Size limits" allows, with the depth and path)
 */
export function parseXmlSafe(text: string, what: string, depthLimit = MAX_DEPTH): Root {
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    // One byte order mark is the encoding's; a second is not markup, and is never dropped silently.
    if (text.charCodeAt(0) === 0xfeff) {
      throw new CanvasError('XML_PARSE', `${what} starts with two byte order marks (U+FEFF U+FEFF)`, 'remove the second byte order mark', {
        line: 1,
        column: 1,
      });
    }
  }
  // A DOCTYPE (only possible in the prolog, before the first element) is refused as such, before
  // its internal subset can make any other error.
  const first = text.search(/<[A-Za-z_:]/);
  const doctype = /<!DOCTYPE/i.exec(first < 0 ? text : text.slice(0, first));
  if (doctype) {
    const before = text.slice(0, doctype.index);
    const line = before.split('\n').length;
    const column = doctype.index - before.lastIndexOf('\n');
    throw new CanvasError('UNSAFE_XML', `${what} has a DOCTYPE (line ${line}, column ${column}); a canvas never has one`, 'remove the <!DOCTYPE ...> declaration', {
      line,
      column,
    });
  }
  // Depth before parsing: the parser and every check after it recurse on elements.
  checkXmlDepth(text, what, depthLimit);
  let root: Root;
  try {
    root = fromXml(text);
  } catch (error) {
    const e = error as { cause?: { message?: string; pos?: number }; line?: number; column?: number };
    const detail = (e.cause?.message ?? String(error)).split('\n')[0] ?? 'malformed XML';
    if (/^(Invalid character|Character reference resolves to an invalid character)\b/.test(detail) && typeof e.cause?.pos === 'number') {
      const refused = badCharacterError(text, e.cause.pos, { line: e.line, column: e.column });
      if (refused) throw refused;
    }
    if (/Named entity isn't defined/.test(detail)) {
      throw new CanvasError(
        'UNSAFE_XML',
        `${what}: ${detail}; only &amp; &lt; &gt; &quot; &apos; and numeric references are allowed`,
        'write the character itself or a numeric reference such as &#233;; entities are never expanded',
        { line: e.line, column: e.column },
      );
    }
    throw new CanvasError('XML_PARSE', `${what} is not well-formed XML: ${detail}`, 'fix the XML at that line and column and send it again', { line: e.line, column: e.column });
  }
  for (const child of root.children) {
    refuseUnsafe(child, what);
  }
  return root;
}

function refuseUnsafe(node: Root['children'][number], what: string): void {
  const at = node.position ? ` (line ${node.position.start.line}, column ${node.position.start.column})` : '';
  const data = node.position ? { line: node.position.start.line, column: node.position.start.column } : {};
  switch (node.type) {
    case 'doctype':
      throw new CanvasError('UNSAFE_XML', `${what} has a DOCTYPE${at}; a canvas never has one`, 'remove the <!DOCTYPE ...> declaration', data);
    case 'instruction':
      throw new CanvasError('UNSAFE_XML', `${what} has a processing instruction <?${node.name} ...?>${at}; a canvas has none, not even an XML declaration`, `remove <?${node.name} ...?>`, data);
    case 'comment':
      throw new CanvasError('UNSAFE_XML', `${what} has a comment${at}; a canvas holds no comments`, 'remove the <!-- ... --> comment, or put its words in a text node', data);
    case 'element':
      for (const child of node.children) {
        refuseUnsafe(child, what);
      }
      return;
    default:
      return;
  }
}
