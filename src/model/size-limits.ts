import { CanvasError } from './canvas-error.js';
import { serializeNode } from './serialize-node.js';
import type { NodePayload } from './types.js';

/**
 * The size limits of docs/canonical.md "Size limits". They stop an accident (a pasted log, a
 * 20 MB dump) from becoming a canvas every reader pays for; they are not the prompt's budget of
 * 20,000 characters, which a canvas may exceed and which the prompt reports at its top.
 */

/** The largest node: 128 KiB of canonical UTF-8 (the node as `canvas read` prints it). */
export const NODE_LIMIT = 131_072;
/** The largest canvas: 1 MiB of canonical UTF-8 (the whole `<ledger>.xml`). */
export const CANVAS_LIMIT = 1_048_576;
/**
 * The largest input before it is parsed: an XML payload of more characters, or a payload or
 * Markdown file of more bytes, cannot fit in a canvas and is refused without being read further.
 * The same number as {@link CANVAS_LIMIT}, named for what it bounds.
 *
 * @alias
 */
export const INPUT_LIMIT = CANVAS_LIMIT;

function kib(n: number): string {
  return `${Math.round(n / 1024).toLocaleString('en-US')} KiB`;
}

/**
 * Refuse an input longer than {@link INPUT_LIMIT} before it is parsed or read further.
 *
 * @param size - the input's length (characters of a string, bytes of a file), or, with
 *   `unread`, what was read of it before reading stopped
 * @param what - how to name the input, for example `the --xml-file payload x.xml`
 * @param unread - the input was not read to its end (a stream), so its length is not known
 * @throws CanvasError `TOO_LARGE` with `data.size`, `data.limit`, `data.unit` (and
 *   `data.unread: true` for a stream cut short)
 */
export function checkInputSize(size: number, what: string, unit: 'bytes' | 'characters', unread = false): void {
  if (size <= INPUT_LIMIT) return;
  const limit = INPUT_LIMIT.toLocaleString('en-US');
  throw new CanvasError(
    'TOO_LARGE',
    unread
      ? `${what} is more than ${limit} ${unit} (reading stopped there), more than a whole canvas may hold`
      : `${what} is ${size.toLocaleString('en-US')} ${unit}, more than a whole canvas may hold (${limit})`,
    `a node is at most ${kib(NODE_LIMIT)} and a canvas at most ${kib(CANVAS_LIMIT)}: keep the large material outside the canvas and link to it`,
    { size, limit: INPUT_LIMIT, unit, what: 'input', ...(unread ? { unread: true } : {}) },
  );
}

/**
 * Refuse a node whose canonical form is larger than {@link NODE_LIMIT} bytes.
 *
 * @param payload - the node (without id and v)
 * @throws CanvasError `TOO_LARGE` with `data.size` and `data.limit` (bytes)
 */
export function checkNodeSize(payload: NodePayload): void {
  // Cheap first: a string of n UTF-16 units is at most 3n bytes of UTF-8.
  const xml = serializeNode(payload, { payload: true });
  if (xml.length * 3 <= NODE_LIMIT) return;
  const size = Buffer.byteLength(xml, 'utf8');
  if (size <= NODE_LIMIT) return;
  throw new CanvasError(
    'TOO_LARGE',
    `the ${payload.type} node is ${size.toLocaleString('en-US')} bytes as stored, more than the ${NODE_LIMIT.toLocaleString('en-US')} bytes (${kib(NODE_LIMIT)}) a node may hold`,
    'split it into several nodes, one insert each, or keep the material outside the canvas and link to it',
    { size, limit: NODE_LIMIT, what: 'node' },
  );
}

/**
 * Refuse a canvas document whose canonical bytes are more than {@link CANVAS_LIMIT}, unless the
 * edit does not make it larger: a canvas already over the limit (made before the limit, or by
 * hand) can always be brought back under it by removing or shortening nodes.
 *
 * @param xml - the canonical document about to be written
 * @param ledger - the canvas's ledger id, for the message
 * @param previous - the canonical document now, asked for only when `xml` is over the limit
 * @throws CanvasError `TOO_LARGE` with `data.size` and `data.limit` (bytes)
 */
export function checkCanvasSize(xml: string, ledger: string, previous: () => string = () => ''): void {
  if (xml.length * 3 <= CANVAS_LIMIT) return;
  const size = Buffer.byteLength(xml, 'utf8');
  if (size <= CANVAS_LIMIT || size <= Buffer.byteLength(previous(), 'utf8')) return;
  throw new CanvasError(
    'TOO_LARGE',
    `canvas ${ledger} would be ${size.toLocaleString('en-US')} bytes, more than the ${CANVAS_LIMIT.toLocaleString('en-US')} bytes (${kib(CANVAS_LIMIT)}) a canvas may hold`,
    `shorten or remove nodes of ${ledger} first (canvas read ${ledger}), or start a second canvas for the rest`,
    { size, limit: CANVAS_LIMIT, what: 'canvas', ledger },
  );
}
