import { diffCanvases } from '../../model/diff-canvases.js';
import { parseCanvas } from '../../model/parse-canvas.js';
import { type CanvasCommit, DOC_OPS } from '../repo/canvas-commit.js';
import { editRecord } from '../repo/edit-record.js';
import type { DiffEntry } from '../repo/outcome.js';
import type { EditContext } from './edit-input.js';
import { canvasFile } from '../repo/layout.js';

/** Diff entries for some nodes between the base document and the current one, with commits. */
export async function diffEntries(ctx: EditContext, baseSha: string, commits: CanvasCommit[], only: (id: string) => boolean): Promise<DiffEntry[]> {
  const byNode = new Map<string, CanvasCommit[]>();
  for (const c of commits) {
    if (!c.node || !DOC_OPS.has(c.op ?? '') || !only(c.node)) continue;
    const list = byNode.get(c.node) ?? [];
    list.push(c);
    byNode.set(c.node, list);
  }
  if (byNode.size === 0) return [];
  const baseBytes = await ctx.reader.file(baseSha, canvasFile(ctx.ledger));
  const baseDoc = baseBytes ? parseCanvas(baseBytes.toString('utf8')) : null;
  const changes = diffCanvases(baseDoc, ctx.canvas);
  const out: DiffEntry[] = [];
  for (const ch of changes) {
    const cs = byNode.get(ch.node);
    if (cs) out.push({ ...ch, commits: cs.map(editRecord) });
  }
  for (const [node, cs] of byNode) {
    if (!out.some((e) => e.node === node)) {
      out.push({ node, change: 'replaced', before: null, after: null, commits: cs.map(editRecord) });
    }
  }
  return out;
}
