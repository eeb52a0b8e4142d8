import type { CanvasNode } from '../model/types.js';
import { serializeNode } from '../model/serialize-node.js';
import { readCanvas, type Workspace } from '../store/index.js';

/** A node as the page's forms start from it: the tree's node, an `svg` figure with its markup. */
type FormStart = CanvasNode & { svgSource?: string; children?: FormStart[] };

function forForms(node: CanvasNode): FormStart {
  if (node.type === 'section') return { ...node, children: node.children.map(forForms) };
  if (node.type === 'figure' && node.kind === 'svg') {
    // The one svg element as canonical markup: the figure's serialization without its own tag.
    const xml = serializeNode(node, { payload: true });
    const inner = xml.slice(xml.indexOf('>') + 1, xml.lastIndexOf('</figure>')).trim();
    const { svg: _svg, ...rest } = node;
    return { ...rest, svgSource: inner };
  }
  return node;
}

/**
 * The canvas tree a form starts from (docs/serve.md, "Editing"), read through the store at the
 * revision the page shows: forms never read the page back.
 *
 * @param ws - the workspace
 * @param ledger - the canvas
 * @param at - the revision the page shows (default: the canvas's revision)
 * @returns `{revision, canvas}`, an svg figure carrying its markup as `svgSource`
 * @throws CanvasError `CANVAS_NOT_FOUND`, `UNKNOWN_BASE`, what reading the canvas throws
 */
export async function canvasForForms(ws: Workspace, ledger: string, at: string | undefined): Promise<{ revision: string; canvas: { children: FormStart[] } }> {
  const read = await readCanvas(ws, { ledger, at });
  return { revision: read.revision, canvas: { children: read.canvas.children.map(forForms) } };
}
