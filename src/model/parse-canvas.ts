import type { Element as XastElement } from 'xast';
import { CanvasError } from './canvas-error.js';
import { childPaths, convertElement, schemaError, type ConvertContext } from './convert-element.js';
import { parseXmlSafe } from './parse-xml-safe.js';
import { ATTRIBUTES } from './convert-element.js';
import { isLedgerId } from './check-ledger-id.js';
import type { Canvas } from './types.js';

/**
 * Parse and check a whole canvas document (docs/schema.md): safe XML, the closed vocabulary,
 * unique ids, one level of section nesting, equal row widths.
 *
 * @param text - the canvas XML (canonical or not)
 * @param expectLedger - when given, the root's `ledger` must equal it
 * @returns the typed tree
 * @throws CanvasError `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`
 */
export function parseCanvas(text: string, expectLedger?: string): Canvas {
  const root = parseXmlSafe(text, expectLedger ? `canvas ${expectLedger}` : 'canvas');
  const el = root.children.find((c): c is XastElement => c.type === 'element');
  if (!el) {
    throw new CanvasError('XML_PARSE', 'the canvas has no root element', 'a canvas is one <canvas> element');
  }
  if (el.name !== 'canvas') {
    throw schemaError(`/${el.name}`, `the root element is <canvas>, not <${el.name}>`, 'wrap the nodes in <canvas ledger=".." schema="2">');
  }
  const path = '/canvas';
  for (const name of Object.keys(el.attributes)) {
    if (!ATTRIBUTES.canvas!.includes(name)) {
      throw schemaError(path, `attribute "${name}" is not allowed on <canvas> (allowed: ledger, schema)`, `remove ${name}="..."`, {
        attribute: name,
      });
    }
  }
  const ledger = el.attributes.ledger ?? '';
  if (!isLedgerId(ledger)) {
    throw schemaError(path, `ledger="${ledger}" is not a ledger id`, 'use the ledger id the canvas was created for');
  }
  if (expectLedger !== undefined && ledger !== expectLedger) {
    throw schemaError(path, `ledger="${ledger}" but this is the canvas of ${expectLedger}`, `set ledger="${expectLedger}"`);
  }
  if (el.attributes.schema !== '2') {
    throw schemaError(path, `schema="${el.attributes.schema ?? ''}": this tool reads schema 2`, 'set schema="2"');
  }
  const ctx: ConvertContext = { mode: 'canvas', seen: new Set() };
  const children = [];
  const paths = childPaths(path, el.children);
  for (const c of el.children) {
    if (c.type === 'element') {
      children.push(convertElement(c, paths.get(c)!, 1, ctx));
    } else if ((c.type === 'text' || c.type === 'cdata') && c.value.trim() !== '') {
      throw schemaError(path, `<canvas> holds nodes only, but has the text "${c.value.trim().slice(0, 40)}"`, 'put the words in a <text> node');
    }
  }
  return { ledger, schema: '2', children };
}
