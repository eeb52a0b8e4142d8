// Reading an Excalidraw scene (docs/excalidraw.md). One piece: the element, file and colour
// readers share the scene's limits and its error helpers (invalid, unsafe, over a limit), which
// nothing outside reading a scene uses.
import { CanvasError } from '../canvas-error.js';
import { judgedScheme, safeHref } from '../safe-href.js';
import { layoutJson } from './layout-json.js';
import { type JsonToken, pointer, scanJson } from './scan-json.js';
import type { Scene, SceneElement, SceneFile } from './scene-types.js';

/** The limits of docs/excalidraw.md, "Limits". */
const SCENE_LIMITS = {
  /** Elements in `elements`, deleted ones included. */
  elements: 2_000,
  /** Points of one line, arrow or free draw. */
  points: 10_000,
  /** The largest magnitude of a position, a size or a point's coordinate, in scene pixels. */
  coordinate: 1_000_000,
} as const;

/** The picture types an embedded image may have, with the bytes each must start with. */
const IMAGE_TYPES: Readonly<Record<string, (b: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,([A-Za-z0-9+/]*={0,2})$/;

type Path = readonly (string | number)[];
type Obj = Extract<JsonToken, { kind: 'object' }>;

const DOCS = 'docs/excalidraw.md';

function invalid(path: Path, rule: string, hint: string): CanvasError {
  const where = pointer(path);
  return new CanvasError('SCENE_INVALID', `the scene at ${where}: ${rule}`, hint, { path: where, rule });
}

function unsafe(path: Path, rule: string, hint: string): CanvasError {
  const where = pointer(path);
  return new CanvasError('UNSAFE_SCENE', `the scene at ${where}: ${rule}`, hint, { path: where, rule });
}

function overLimit(path: Path, what: keyof typeof SCENE_LIMITS, found: string): CanvasError {
  const where = pointer(path);
  const limit = SCENE_LIMITS[what];
  return new CanvasError(
    'SCENE_LIMIT',
    `the scene at ${where}: ${found}; the limit is ${limit.toLocaleString('en-US')} (${DOCS}, "Limits")`,
    'split the sketch into several figures, or simplify it in Excalidraw and save it again',
    { path: where, what, limit },
  );
}

function field(o: Obj, key: string): JsonToken | undefined {
  return o.entries.find((e) => e.key === key)?.value;
}

function kindName(t: JsonToken): string {
  return t.kind === 'literal' ? t.raw : `a${t.kind === 'array' || t.kind === 'object' ? 'n' : ''} ${t.kind}`;
}

/** Reads an element's typed fields with Excalidraw's defaults; a field of the wrong type is refused. */
class ElementReader {
  constructor(
    readonly o: Obj,
    readonly path: Path,
  ) {}

  get(key: string): JsonToken | undefined {
    return field(this.o, key);
  }

  /** The key is there and not null. */
  present(key: string): boolean {
    const t = this.get(key);
    return t !== undefined && !(t.kind === 'literal' && t.value === null);
  }

  wrong(key: string, t: JsonToken, want: string): never {
    throw invalid([...this.path, key], `${key} is ${kindName(t)}, not ${want}`, `give ${key} ${want}, or leave it out (${DOCS}, "What is refused")`);
  }

  number(key: string, fallback: number, bounded = false): number {
    const t = this.get(key);
    if (t === undefined || (t.kind === 'literal' && t.value === null)) return fallback;
    if (t.kind !== 'number') this.wrong(key, t, 'a number');
    if (!Number.isFinite(t.value) || (bounded && Math.abs(t.value) > SCENE_LIMITS.coordinate)) {
      throw overLimit([...this.path, key], 'coordinate', `${key} is ${t.raw}`);
    }
    return t.value;
  }

  string(key: string, fallback: string): string {
    const t = this.get(key);
    if (t === undefined || (t.kind === 'literal' && t.value === null)) return fallback;
    if (t.kind !== 'string') this.wrong(key, t, 'a string');
    return t.value;
  }

  nullableString(key: string): string | null {
    const t = this.get(key);
    if (t === undefined || (t.kind === 'literal' && t.value === null)) return null;
    if (t.kind !== 'string') this.wrong(key, t, 'a string or null');
    return t.value;
  }

  boolean(key: string, fallback: boolean): boolean {
    const t = this.get(key);
    if (t === undefined || (t.kind === 'literal' && t.value === null)) return fallback;
    if (t.kind !== 'literal' || t.value === null) this.wrong(key, t, 'true or false');
    return t.value;
  }

  points(): [number, number][] {
    const t = this.get('points');
    if (t === undefined) return [];
    if (t.kind !== 'array') this.wrong('points', t, 'an array of [x, y] pairs');
    if (t.items.length > SCENE_LIMITS.points) {
      throw overLimit([...this.path, 'points'], 'points', `an element of ${t.items.length.toLocaleString('en-US')} points`);
    }
    return t.items.map((p, i) => {
      const at = [...this.path, 'points', i];
      if (p.kind !== 'array' || p.items.length < 2 || p.items.some((n) => n.kind !== 'number')) {
        throw invalid(at, 'a point is an array of two numbers [x, y]', `write the point as [x, y] (${DOCS}, "What is refused")`);
      }
      const [x, y] = p.items.map((n) => (n as { value: number }).value) as [number, number];
      for (const [k, v] of [[0, x] as const, [1, y] as const]) {
        if (!Number.isFinite(v) || Math.abs(v) > SCENE_LIMITS.coordinate) throw overLimit([...at, k], 'coordinate', `a point's coordinate is ${(p.items[k] as { raw: string }).raw}`);
      }
      return [x, y];
    });
  }

  numbers(key: string): number[] {
    const t = this.get(key);
    if (t === undefined || (t.kind === 'literal' && t.value === null)) return [];
    if (t.kind !== 'array' || t.items.some((n) => n.kind !== 'number' || !Number.isFinite(n.value))) this.wrong(key, t, 'an array of numbers');
    return t.items.map((n) => (n as { value: number }).value);
  }

  /** The `elementId` of a binding object, or null (a binding of another shape is ignored). */
  boundId(key: string): string | null {
    const t = this.get(key);
    if (t?.kind !== 'object') return null;
    const id = field(t, 'elementId');
    return id?.kind === 'string' ? id.value : null;
  }

  roundness(): SceneElement['roundness'] {
    const t = this.get('roundness');
    if (t === undefined || (t.kind === 'literal' && t.value === null)) return null;
    if (t.kind !== 'object') this.wrong('roundness', t, 'null or an object {"type": n}');
    const r = new ElementReader(t, [...this.path, 'roundness']);
    const value = r.number('value', Number.NaN);
    return { type: r.number('type', 2), ...(Number.isNaN(value) ? {} : { value }) };
  }
}

/** A seed Excalidraw would have written, or one made from the id (roughjs draws at random from seed 0). */
function seedOf(raw: number, id: string): number {
  if (Number.isInteger(raw) && raw > 0 && raw < 2 ** 31) return raw;
  let h = 2166136261;
  for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return ((h >>> 1) % (2 ** 31 - 1)) + 1;
}

function checkLink(link: string | null, path: Path): void {
  if (link === null || link.trim() === '') return;
  if (judgedScheme(link) === null || safeHref(link) !== null) return;
  throw unsafe(
    [...path, 'link'],
    `the link ${JSON.stringify(link.length > 60 ? `${link.slice(0, 57)}...` : link)} has a scheme other than http, https or mailto`,
    `give the element an http, https or mailto link, or remove it (${DOCS}, "What is refused")`,
  );
}

function readElement(t: JsonToken, index: number, ids: Set<string>): SceneElement {
  const path = ['elements', index];
  if (t.kind !== 'object') throw invalid(path, `an element is an object, not ${kindName(t)}`, `remove it, or save the scene from Excalidraw again (${DOCS})`);
  const r = new ElementReader(t, path);
  for (const key of ['id', 'type']) {
    const v = r.get(key);
    if (v === undefined || v.kind !== 'string' || v.value === '') {
      throw invalid(path, `an element needs "${key}", a string that is not empty`, `give the element its ${key} (every element Excalidraw saves has one)`);
    }
  }
  const id = r.string('id', '');
  if (ids.has(id)) throw invalid([...path, 'id'], `the element id ${JSON.stringify(id)} appears twice`, 'give each element its own id');
  ids.add(id);
  const link = r.nullableString('link');
  checkLink(link, path);
  const scale = r.numbers('scale');
  return {
    index,
    id,
    type: r.string('type', ''),
    x: r.number('x', 0, true),
    y: r.number('y', 0, true),
    width: r.number('width', 0, true),
    height: r.number('height', 0, true),
    angle: r.number('angle', 0),
    strokeColor: r.string('strokeColor', '#1e1e1e'),
    backgroundColor: r.string('backgroundColor', 'transparent'),
    fillStyle: r.string('fillStyle', 'solid'),
    strokeWidth: r.number('strokeWidth', 2, true),
    strokeStyle: r.string('strokeStyle', 'solid'),
    roughness: r.number('roughness', 1, true),
    opacity: r.number('opacity', 100),
    seed: seedOf(r.number('seed', 0), id),
    roundness: r.roundness(),
    isDeleted: r.boolean('isDeleted', false),
    link,
    points: r.points(),
    pressures: r.numbers('pressures'),
    simulatePressure: r.boolean('simulatePressure', true),
    lastCommitted: r.present('lastCommittedPoint'),
    startArrowhead: r.nullableString('startArrowhead'),
    endArrowhead: r.get('endArrowhead') === undefined ? 'arrow' : r.nullableString('endArrowhead'),
    elbowed: r.boolean('elbowed', false),
    text: r.string('text', ''),
    fontSize: r.number('fontSize', 20, true),
    fontFamily: r.number('fontFamily', 1),
    textAlign: r.string('textAlign', 'left'),
    verticalAlign: r.string('verticalAlign', 'top'),
    lineHeight: r.number('lineHeight', 1.25, true),
    containerId: r.nullableString('containerId'),
    fileId: r.nullableString('fileId'),
    scale: scale.length === 2 ? [scale[0]!, scale[1]!] : [1, 1],
    name: r.nullableString('name'),
    startBound: r.boundId('startBinding'),
    endBound: r.boundId('endBinding'),
  };
}

function readFile(t: JsonToken, key: string): SceneFile {
  const path = ['files', key];
  if (t.kind !== 'object') throw invalid(path, `a file is an object, not ${kindName(t)}`, `remove it, or save the scene from Excalidraw again (${DOCS})`);
  const r = new ElementReader(t, path);
  const dataURL = r.string('dataURL', '');
  const mimeType = r.string('mimeType', '');
  const m = DATA_URL.exec(dataURL);
  const type = m ? m[1]!.toLowerCase() : null;
  const hint = `embed a PNG, JPEG, GIF or WebP picture (an SVG can be exported from its editor as PNG) (${DOCS}, "What is refused")`;
  if (!m || type === null || !Object.hasOwn(IMAGE_TYPES, type)) {
    throw unsafe([...path, 'dataURL'], `the data URL is ${m ? `of type ${JSON.stringify(m[1])}` : 'not a base64 data: URL'}; an embedded image is a PNG, JPEG, GIF or WebP picture`, hint);
  }
  if (mimeType.toLowerCase() !== type) {
    throw unsafe([...path, 'mimeType'], `mimeType ${JSON.stringify(mimeType)} is not the data URL's type ${type}`, hint);
  }
  if (!IMAGE_TYPES[type]!(Buffer.from(m[3]!.slice(0, 24), 'base64'))) {
    throw unsafe([...path, 'dataURL'], `the data URL says ${type} but its bytes are not a ${type} picture`, hint);
  }
  return { mimeType: type, dataURL };
}

function colorOf(t: JsonToken | undefined): string | null {
  return t !== undefined && t.kind === 'string' ? t.value : null;
}

/**
 * Read and check a scene (docs/excalidraw.md): Excalidraw's JSON file format, `type`
 * `"excalidraw"`, an `elements` array of objects with an `id` and a `type`, optional `appState`
 * and `files` objects, and every other key kept as it is. Pure: no I/O.
 *
 * @param text - the scene file's text (a leading byte order mark is dropped)
 * @returns the scene's canonical text and what the drawer reads of it
 * @throws CanvasError `SCENE_JSON` (not JSON, with line, column and JSON Pointer), `SCENE_INVALID`
 *   (not a scene, an element without `id`/`type`, a field the drawer reads of the wrong type, an
 *   id twice), `SCENE_LIMIT` (elements, points, coordinates, nesting), `UNSAFE_SCENE` (a link
 *   whose scheme is not http, https or mailto; an embedded file that is not a raster picture);
 *   `data.path` is the JSON Pointer of the place
 */
export function readScene(text: string): Scene {
  const top = scanJson(text);
  if (top.kind !== 'object') throw invalid([], `a scene is a JSON object, not ${kindName(top)}`, `export the sketch from Excalidraw (File, Save to disk) and give that file (${DOCS})`);
  const type = field(top, 'type');
  if (type === undefined || type.kind !== 'string' || type.value !== 'excalidraw') {
    throw invalid(['type'], `a scene has "type": "excalidraw"${type?.kind === 'string' ? `, not ${type.raw}` : ''}`, `give an Excalidraw scene file (.excalidraw), not a library or clipboard (${DOCS})`);
  }
  for (const [key, want] of [
    ['version', 'number'],
    ['source', 'string'],
    ['appState', 'object'],
    ['files', 'object'],
  ] as const) {
    const t = field(top, key);
    if (t !== undefined && t.kind !== want) throw invalid([key], `${key} is ${kindName(t)}, not a${want === 'object' ? 'n' : ''} ${want}`, `give ${key} as Excalidraw writes it, or leave it out (${DOCS})`);
  }
  const elements = field(top, 'elements');
  if (elements === undefined || elements.kind !== 'array') {
    throw invalid(
      ['elements'],
      elements === undefined ? 'a scene has "elements", an array' : `elements is ${kindName(elements)}, not an array`,
      `export the sketch from Excalidraw and give that file (${DOCS})`,
    );
  }
  if (elements.items.length > SCENE_LIMITS.elements) {
    throw overLimit(['elements'], 'elements', `a scene of ${elements.items.length.toLocaleString('en-US')} elements`);
  }
  const ids = new Set<string>();
  const read = elements.items.map((t, i) => readElement(t, i, ids));
  if (!read.some((e) => !e.isDeleted)) throw invalid(['elements'], 'the scene has no element to show', 'draw something in the scene, or remove the figure');
  const files = new Map<string, SceneFile>();
  const filesToken = field(top, 'files');
  if (filesToken?.kind === 'object') for (const e of filesToken.entries) files.set(e.key, readFile(e.value, e.key));
  const appState = field(top, 'appState');
  const background = appState?.kind === 'object' ? colorOf(field(appState, 'viewBackgroundColor')) : null;
  const filesBytes = filesToken === undefined ? 0 : Buffer.byteLength(layoutJson(filesToken), 'utf8');
  return { text: layoutJson(top), elements: read, files, background, filesBytes };
}
