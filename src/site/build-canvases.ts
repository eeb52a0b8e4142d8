import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../model/canvas-error.js';
import type { DeskProposal } from '../model/desk.js';
import type { DeskHtml } from '../render/html/desk-section.js';
import type { IndexEntry } from '../render/html/render-index.js';
import { indexEntryOf } from '../render/html/index-entry.js';
import { type CanvasRef, readOpenProposals, readSnapshots, RepoReader, type Workspace } from '../store/index.js';
import type { ManifestEntry, SiteRenderers } from './site-types.js';
import { contentHash } from './content-hash.js';
import { writeSiteFile } from './write-site-file.js';

/** An error of one canvas as its failure: a refusal keeps its code; anything else is internal. */
function toCanvasError(e: unknown): CanvasError {
  return e instanceof CanvasError ? e : new CanvasError('INTERNAL', String((e as Error)?.message ?? e), 'run `canvas verify`');
}

/**
 * An index entry as the manifest keeps it: its desk's items as HTML in place of the desk, or
 * nothing in its place when nothing waits; the desk as it is when there is no renderer of the
 * items (docs/site.md, "Incremental").
 */
export function withDeskItems(entry: IndexEntry, render: SiteRenderers['renderDeskItems']): IndexEntry & { deskHtml?: DeskHtml } {
  const { desk, ...rest } = entry;
  if (desk === undefined || desk.questions.length + desk.proposals.length === 0) return rest;
  return render ? { ...rest, deskHtml: render(desk) } : entry;
}

/** What building one canvas came to: its manifest entry, or why it failed. */
export type CanvasResult = { ledger: string; entry: ManifestEntry } | { ledger: string; failed: { code: string; message: string } };

/** The output directory: its real path, and the path as the caller named it (for messages). */
export interface SiteOut {
  path: string;
  given: string;
}

/**
 * Build some canvases' folders (docs/site.md): read their snapshots in rounds through the batch,
 * then render each one's page, comment and prompt and write them into `<ledger>/`, made once,
 * and its row of the index page.
 * The unit of work of the build, the same in this thread or a worker's. The caller has judged
 * every path it writes. A canvas that cannot be read, rendered or written fails alone.
 *
 * @param ws - the workspace
 * @param refs - the canvases and the revisions to build them at
 * @param out - the output directory
 * @param renderers - the page, comment and prompt renderers
 * @returns one result per canvas, in the order given
 */
export async function buildCanvases(
  ws: Workspace,
  refs: readonly CanvasRef[],
  out: SiteOut,
  renderers: Pick<SiteRenderers, 'renderPage' | 'renderComment' | 'renderPrompt' | 'renderIndexRow' | 'renderDeskItems'>,
): Promise<CanvasResult[]> {
  const reader = new RepoReader(ws);
  let snapshots: Awaited<ReturnType<typeof readSnapshots>>;
  // Each canvas's proposals waiting for a decision, for the index's desk (docs/site.md, "The desk").
  const proposals: Array<DeskProposal[] | CanvasError> = [];
  try {
    snapshots = await readSnapshots(reader, refs);
    for (const s of snapshots) {
      proposals.push(s instanceof CanvasError ? s : await readOpenProposals(ws, s.ledger, s.canvas, s.revision, reader).catch((e: unknown) => toCanvasError(e)));
    }
  } finally {
    reader.close();
  }
  const results: CanvasResult[] = [];
  for (const [i, snapshot] of snapshots.entries()) {
    const { ledger } = refs[i]!;
    // Between two canvases the thread answers what came meanwhile: the next batch's reads, whose
    // rounds would otherwise wait for this whole batch (docs/site.md, "Every core").
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    try {
      if (snapshot instanceof CanvasError) throw snapshot;
      const open = proposals[i]!;
      if (open instanceof CanvasError) throw open;
      const files: Record<string, string> = {
        'index.html': await renderers.renderPage(snapshot),
        'comment.md': renderers.renderComment(snapshot),
        'prompt.txt': renderers.renderPrompt(snapshot, {}),
      };
      try {
        mkdirSync(join(out.path, ledger));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new CanvasError('BAD_OUT_DIR', `--out ${out.given} cannot be written (${ledger}/): ${(e as Error).message}`, 'free some space or fix the permissions, then build again', {
            out: out.given,
            path: ledger,
          });
        }
      }
      for (const [name, content] of Object.entries(files)) writeSiteFile(out.path, out.given, `${ledger}/${name}`, content);
      const entry = indexEntryOf(snapshot, open);
      const row = renderers.renderIndexRow?.(entry);
      const hashes = Object.fromEntries(Object.entries(files).map(([n, c]) => [n, contentHash(c)]));
      results.push({ ledger, entry: { ...withDeskItems(entry, renderers.renderDeskItems), ...(row === undefined ? {} : { row }), files: hashes } });
    } catch (e) {
      const err = toCanvasError(e);
      results.push({ ledger, failed: { code: err.code, message: err.message } });
    }
  }
  return results;
}
