import type { Element as XastElement } from 'xast';
import { CanvasError } from './canvas-error.js';
import { checkScene } from './excalidraw/check-scene.js';
import { parsePayload } from './parse-payload.js';
import { serializeNode } from './serialize-node.js';
import { checkInputSize } from './size-limits.js';
import { NODE_TYPES, type NodePayload, type NodeType } from './types.js';

/** The fields of each node type's payload object besides `type`: required, then optional (docs/library.md, "Payload objects"). */
const FIELDS: { readonly [T in NodeType]: { required: readonly string[]; optional: readonly string[] } } = {
  section: { required: ['title'], optional: ['children'] },
  text: { required: ['text'], optional: [] },
  list: { required: ['items'], optional: ['ordered'] },
  table: { required: ['rows'], optional: [] },
  figure: { required: ['kind'], optional: ['caption', 'source', 'svg'] },
  link: { required: ['href', 'label'], optional: [] },
  question: { required: ['text'], optional: ['answered'] },
};

/** What each field holds, for the check and the message. */
const SHAPE: Readonly<Record<string, { is: (v: unknown) => boolean; what: string }>> = {
  title: { is: (v) => typeof v === 'string', what: 'a string' },
  text: { is: (v) => typeof v === 'string', what: 'a string' },
  href: { is: (v) => typeof v === 'string', what: 'a string' },
  label: { is: (v) => typeof v === 'string', what: 'a string' },
  kind: { is: (v) => typeof v === 'string', what: 'a string' },
  caption: { is: (v) => typeof v === 'string', what: 'a string' },
  source: { is: (v) => typeof v === 'string', what: 'a string' },
  ordered: { is: (v) => typeof v === 'boolean', what: 'true or false' },
  answered: { is: (v) => typeof v === 'boolean', what: 'true or false' },
  items: { is: (v) => Array.isArray(v) && v.every((i) => typeof i === 'string'), what: 'an array of strings' },
  rows: { is: (v) => Array.isArray(v) && v.every((r) => Array.isArray(r) && r.every((c) => typeof c === 'string')), what: 'an array of arrays of strings' },
  children: { is: (v) => Array.isArray(v), what: 'an array' },
  svg: { is: (v) => isSvgTree(v, 0), what: 'one xast element (the svg element: name, attributes of strings, children of elements and text)' },
};

/** An XML name as the serializer writes it: a name, an attribute, a prefixed one. */
const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*(?::[A-Za-z_][A-Za-z0-9._-]*)?$/;

/** A plain object: made by `{}` or `Object.create(null)`, not an array, a date, a class instance. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A xast element holding elements and text only, with names and attributes the serializer can write as they are. */
function isSvgTree(v: unknown, depth: number): v is XastElement {
  if (depth > 64 || !isPlainObject(v) || v.type !== 'element' || typeof v.name !== 'string' || !XML_NAME.test(v.name)) return false;
  const attributes = v.attributes ?? {};
  if (!isPlainObject(attributes)) return false;
  if (!Object.entries(attributes).every(([k, a]) => XML_NAME.test(k) && typeof a === 'string')) return false;
  const children = v.children ?? [];
  if (!Array.isArray(children)) return false;
  return children.every((c: unknown) => (isPlainObject(c) && c.type === 'text' && typeof c.value === 'string') || isSvgTree(c, depth + 1));
}

function refuse(path: string, rule: string, fix: string, data: Record<string, unknown> = {}): CanvasError {
  return new CanvasError('SCHEMA', `${path}: ${rule}`, fix, { path, rule, ...data });
}

/**
 * Check a payload given as an object of the library (docs/library.md, "Payload objects") as
 * strictly as the same node given as XML: exactly the fields of its type, each of the right type;
 * no `id` or `v`; a section without children; then the node is written as XML and read back by
 * the payload parser, so every rule of `--xml` holds (a blank text, a character a canvas cannot
 * hold, an unsafe SVG's namespace, a table's widths, ...). Nothing is dropped or coerced: a
 * payload that would change on the way is refused.
 *
 * @param value - what the caller gave as the payload
 * @returns the payload as the parser reads its XML (the same node, in the store's form)
 * @throws CanvasError `SCHEMA` (not an object, an unknown `type`, an unknown field, a missing or
 *   mistyped one), `PAYLOAD_HAS_ID`, `PAYLOAD_CHILDREN`, `TOO_LARGE`, and whatever the XML
 *   payload's parser throws (`SCHEMA`, `TOO_DEEP`, `SCENE_INVALID`, ...)
 */
export function payloadFromTree(value: unknown): NodePayload {
  if (!isPlainObject(value)) {
    throw refuse('/', 'a payload object is a plain object with a type', 'for example { type: "text", text: "We ship on Friday." }, or { text: "..." }');
  }
  const type = value.type;
  if (typeof type !== 'string' || !(NODE_TYPES as readonly string[]).includes(type)) {
    throw refuse('/', `the payload's type ${JSON.stringify(type)} is not a node type (${NODE_TYPES.join(', ')})`, 'give type one of the seven node types', { type: String(type) });
  }
  const path = `/${type}`;
  const carried = ['id', 'v'].filter((k) => k in value);
  if (carried.length > 0) {
    throw new CanvasError(
      'PAYLOAD_HAS_ID',
      `the payload ${type} carries ${carried.join(' and ')}; the store mints ids and counts versions`,
      `remove ${carried.join(' and ')} from the payload: an insert gets a new id; to change a node, replace it, naming its id as the node argument`,
      { path, attributes: carried },
    );
  }
  const { required, optional } = FIELDS[type as NodeType];
  const known = ['type', ...required, ...optional];
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw refuse(path, `the field ${JSON.stringify(key)} is not part of a ${type} payload (fields: ${known.join(', ')})`, `remove ${key}; the vocabulary is closed`, { field: key });
    }
  }
  for (const key of required) {
    if (value[key] === undefined) throw refuse(path, `a ${type} payload needs the field ${key}`, `add ${key}`, { field: key });
  }
  for (const key of [...required, ...optional]) {
    const v = value[key];
    if (v !== undefined && !SHAPE[key]!.is(v)) throw refuse(path, `the field ${key} is ${SHAPE[key]!.what}`, `give ${key} as ${SHAPE[key]!.what}`, { field: key });
  }
  if (type === 'section' && (value.children as unknown[] | undefined)?.length) {
    throw new CanvasError(
      'PAYLOAD_CHILDREN',
      `the section payload has ${(value.children as unknown[]).length} children; a section is born empty, and replacing a section changes its title only`,
      'send the section without children, then insert each child with its own write',
      { path },
    );
  }
  if (type === 'figure') {
    const svg = value.kind === 'svg';
    if (svg ? value.svg === undefined : value.source === undefined) {
      throw refuse(path, `a ${String(value.kind)} figure payload needs the field ${svg ? 'svg' : 'source'}`, svg ? 'give the svg element as svg' : 'give the figure source as source', {
        field: svg ? 'svg' : 'source',
      });
    }
    if (svg ? value.source !== undefined && value.source !== '' : value.svg !== undefined) {
      throw refuse(path, `a ${String(value.kind)} figure payload has no field ${svg ? 'source' : 'svg'}`, `remove ${svg ? 'source' : 'svg'}`, { field: svg ? 'source' : 'svg' });
    }
  }
  const node = {
    ...value,
    ...(type === 'section' ? { children: [] } : {}),
    ...(type === 'list' ? { ordered: value.ordered === true } : {}),
    ...(type === 'question' ? { answered: value.answered === true } : {}),
    ...(type === 'figure' ? { source: value.source ?? '' } : {}),
  } as NodePayload;
  const xml = serializeNode(node, { payload: true });
  checkInputSize(xml.length, 'the payload', 'characters');
  const payload = parsePayload(xml);
  // The parser lays a writer's scene out; an object's must be laid out already, as stored
  // (docs/excalidraw.md, "The stored form"): refused, not rewritten.
  if (payload.type === 'figure' && payload.kind === 'excalidraw') checkScene(value.source as string);
  return payload;
}
