/**
 * `canvas import` (docs/import.md): birth a canvas from a Markdown decision record through
 * the public write functions only: `createCanvas`, then one `insertNode` per block, each
 * against the revision the previous write returned. The mapping is docs/import.md.
 *
 * Layout: import/ sits between cli/ and store/: it calls the store's public writes and the
 * model, and never touches git itself.
 */
import { CanvasError, type ErrorCode } from '../model/canvas-error.js';
import { checkLedgerId } from '../model/check-ledger-id.js';
import { checkReason, MAX_REASON } from '../model/check-reason.js';
import { parseAuthor } from '../model/parse-author.js';
import { checkCanvasSize } from '../model/size-limits.js';
import { parseCanvas } from '../model/parse-canvas.js';
import { payloadFromInput } from '../model/payload-from-input.js';
import { serializeCanvas } from '../model/serialize-canvas.js';
import { serializeNode } from '../model/serialize-node.js';
import type { Canvas, CanvasNode, NodeType } from '../model/types.js';
import { createCanvas, insertNode, type Outcome, type Workspace } from '../store/index.js';
import type { Flattening, PlannedNode } from './import-plan.js';
import { planImport } from './plan-import.js';

/** What `importMarkdown` takes. */
export interface ImportRequest {
  /** The ledger id of the new canvas. */
  ledger: string;
  /** The Markdown document (UTF-8 text). */
  markdown: string;
  /** The reason: one plain line; every commit's reason is built from it. */
  why: string;
  /** `who[ | step:S][ | run:R]` or `who | by-hand`. */
  author: string;
  /** The name reasons give the source, for example the file's base name (default `markdown`). */
  source?: string | undefined;
}

/** One node the import wrote. */
export interface ImportedNode {
  /** The id the store minted. */
  id: string;
  type: NodeType;
  /** 1-based line of the Markdown block it came from. */
  line: number;
}

/** What an import did. */
export interface ImportResult {
  ledger: string;
  /** The canvas's revision after the last insert (`Canvas-Base:`). */
  revision: string;
  /** Every node written, in document order. */
  nodes: ImportedNode[];
  /** Everything the mapping flattened, kept as text or skipped, by line. */
  flattened: Flattening[];
  /** How many blocks became nodes (equals `nodes.length`). */
  blocks: number;
}

function cut(text: string, max: number): string {
  const cps = [...text];
  return cps.length <= max ? text : `${cps.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** The reason of one commit: the caller's reason, then where the node came from; at most 500 code points. */
function reasonFor(why: string, where: string): string {
  const tail = ` (import: ${where})`;
  return `${cut(why, MAX_REASON - [...tail].length)}${tail}`;
}

function rejectedError(o: Outcome): CanvasError {
  if (o.outcome === 'rejected') return new CanvasError(o.code, o.reason, o.hint, o.data ?? {});
  return new CanvasError('INTERNAL', `unexpected outcome ${o.outcome}`, 'this is a bug; please report it');
}

/**
 * Import a Markdown decision record as a new canvas (docs/import.md; the mapping is
 * docs/import.md). Every block is mapped and checked against the schema, and every reason
 * checked, before the first write, so bad input writes nothing. Then the canvas is created and
 * each node inserted through `insertNode` with `base` = the revision the previous write returned:
 * a `##` section at the root, its blocks and `###` sections inside it.
 *
 * @param ws - the workspace
 * @param req - `{ledger, markdown, why, author, source?}`; `source` names the document in reasons
 * @returns `{ledger, revision, nodes: [{id, type, line}], flattened: [{line, what}], blocks}`
 * @throws CanvasError `BAD_LEDGER_ID`, `BAD_REASON`, `BAD_AUTHOR` before anything is read;
 *   `IMPORT_FAILED` when the document holds no block or a block fails the schema (data: line,
 *   kind, code; nothing written); the store's rejection of create (`CANVAS_EXISTS`,
 *   `DIRTY_WORKTREE`, ...; nothing written); `IMPORT_FAILED` when an insert is not applied
 *   (data: line, kind, code, revision; the canvas then holds the nodes imported before it);
 *   internal errors of the store
 */
export async function importMarkdown(ws: Workspace, req: ImportRequest): Promise<ImportResult> {
  const ledger = checkLedgerId(req.ledger);
  const why = checkReason(req.why);
  parseAuthor(req.author);
  const source = req.source ?? 'markdown';
  const plan = planImport(req.markdown);
  if (plan.nodes.length === 0) {
    throw new CanvasError('IMPORT_FAILED', `${source} holds no block to import`, `use canvas create ${ledger} for an empty canvas`, { source });
  }
  const reasons = plan.nodes.map((n) => reasonFor(why, `${source} line ${n.line}: ${n.kind}`));
  for (const [i, n] of plan.nodes.entries()) check(n, reasons[i]!, source);
  checkDocument(ledger, plan.nodes, source);
  const created = await createCanvas(ws, { ledger, why: reasonFor(why, source), author: req.author });
  if (created.outcome !== 'applied') throw rejectedError(created);
  let revision = created.revision;
  const ids: string[] = [];
  /** The last node inserted into each container (a section index, or -1 for the root). */
  const last = new Map<number, string>();
  const nodes: ImportedNode[] = [];
  for (const [i, n] of plan.nodes.entries()) {
    const container = n.parent ?? -1;
    const previous = last.get(container);
    const anchor = previous !== undefined ? { after: previous } : { into: n.parent === null ? 'root' : ids[n.parent]! };
    const out = await insertNode(ws, {
      ledger,
      why: reasons[i]!,
      author: req.author,
      base: revision,
      ...anchor,
      payload: { xml: serializeNode(n.payload, { payload: true }) },
    });
    if (out.outcome !== 'applied' || out.node === null) {
      const code: ErrorCode = out.outcome === 'rejected' || out.outcome === 'conflict' ? out.code : 'INTERNAL';
      const detail = out.outcome === 'rejected' ? `: ${out.reason}` : out.outcome === 'conflict' ? ': another writer changed the canvas' : '';
      throw new CanvasError(
        'IMPORT_FAILED',
        `${source} line ${n.line} (${n.kind}): the insert was ${out.outcome} with ${code}${detail}; canvas ${ledger} holds the ${nodes.length} node(s) imported before it`,
        `read what was imported with canvas read ${ledger}; insert the rest by hand, or import again under a new ledger id`,
        { line: n.line, kind: n.kind, code, imported: nodes.length, revision },
      );
    }
    revision = out.revision;
    ids.push(out.node);
    last.set(container, out.node);
    nodes.push({ id: out.node, type: n.payload.type, line: n.line });
  }
  return { ledger, revision, nodes, flattened: plan.flattened, blocks: nodes.length };
}

/** Check one planned node as the store will (schema, reason) before anything is written. */
function check(n: PlannedNode, reason: string, source: string): void {
  try {
    payloadFromInput({ xml: serializeNode(n.payload, { payload: true }) });
    checkReason(reason);
  } catch (e) {
    if (!(e instanceof CanvasError)) throw e;
    throw new CanvasError('IMPORT_FAILED', `${source} line ${n.line} (${n.kind}) cannot be a canvas node: ${e.code}: ${e.message}; nothing was written`, `fix line ${n.line} of ${source} and import again`, {
      line: n.line,
      kind: n.kind,
      code: e.code,
    });
  }
}

/**
 * Check the whole canvas the import will have written, with placeholder ids, as the store
 * parses it: what no single node shows (a section inside a section) is refused before the
 * first write too.
 */
function checkDocument(ledger: string, nodes: readonly PlannedNode[], source: string): void {
  const canvas: Canvas = { ledger, schema: '2', children: [] };
  const built: CanvasNode[] = [];
  for (const [i, n] of nodes.entries()) {
    const node = { ...structuredClone(n.payload), id: `n${i + 1}`, v: 1 } as CanvasNode;
    built.push(node);
    const parent = n.parent === null ? undefined : built[n.parent];
    if (parent?.type === 'section') parent.children.push(node);
    else canvas.children.push(node);
  }
  try {
    const xml = serializeCanvas(canvas);
    checkCanvasSize(xml, ledger);
    parseCanvas(xml, ledger);
  } catch (e) {
    if (!(e instanceof CanvasError)) throw e;
    const ids = [...String(e.data.path ?? e.message).matchAll(/@id='n(\d+)'/g)];
    const at = ids.length > 0 ? nodes[Number(ids[ids.length - 1]![1]) - 1] : undefined;
    const where = at ? `${source} line ${at.line} (${at.kind})` : source;
    throw new CanvasError(
      'IMPORT_FAILED',
      `${where} cannot be imported: ${e.code}: ${e.message}; nothing was written`,
      at ? `fix line ${at.line} of ${source} and import again` : `fix ${source} and import again`,
      { ...(at ? { line: at.line, kind: at.kind } : {}), code: e.code },
    );
  }
}
