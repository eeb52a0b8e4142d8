import type { Element as XastElement } from 'xast';
import { CanvasError } from './canvas-error.js';
import { convertElement, type ConvertContext } from './convert-element.js';
import { NODE_DEPTH } from './check-xml-depth.js';
import { parseXmlSafe } from './parse-xml-safe.js';
import type { NodePayload } from './types.js';

/**
 * Parse a writer's payload: exactly one node element as an XML fragment, carrying neither `id`
 * nor `v` (the store mints ids and counts versions), and, for a section, no children
 * (docs/identity.md).
 *
 * @param text - the fragment, for example `<text>Ship it.</text>`
 * @returns the node without id and v
 * @throws CanvasError `XML_PARSE`, `UNSAFE_XML`, `TOO_DEEP` (deeper than `NODE_DEPTH`),
 *   `PAYLOAD_HAS_ID`, `PAYLOAD_CHILDREN`, `SCHEMA`
 */
export function parsePayload(text: string): NodePayload {
  const root = parseXmlSafe(text, 'the payload', NODE_DEPTH);
  const elements = root.children.filter((c): c is XastElement => c.type === 'element');
  const el = elements[0];
  if (!el) {
    throw new CanvasError('XML_PARSE', 'the payload has no element', 'send one node, for example <text>...</text>');
  }
  const path = `/${el.name}`;
  const carried = ['id', 'v'].filter((k) => k in el.attributes);
  if (carried.length > 0) {
    throw new CanvasError(
      'PAYLOAD_HAS_ID',
      `the payload <${el.name}> carries ${carried.map((k) => `${k}="${el.attributes[k]}"`).join(' and ')}; the store mints ids and counts versions`,
      `remove ${carried.join(' and ')} from the payload: an insert gets a new id; to change a node, replace it, naming its id as the command's <node> argument`,
      { path, attributes: carried },
    );
  }
  const ctx: ConvertContext = { mode: 'payload', seen: new Set() };
  const node = convertElement(el, path, 1, ctx, true);
  const { id: _id, v: _v, ...payload } = node;
  return payload as NodePayload;
}
