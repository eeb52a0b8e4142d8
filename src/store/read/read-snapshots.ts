import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { indexNodes } from '../../model/index-nodes.js';
import type { Snapshot } from '../../model/snapshot.js';
import type { CanvasCommit } from '../repo/canvas-commit.js';
import { cachedCanvasTree } from '../repo/canvas-tree-cache.js';
import { canvasFactsOfMany } from '../repo/canvas-facts.js';
import { editRecord } from '../repo/edit-record.js';
import { cachedHistories, foldHistories, recentOf } from './node-histories.js';
import type { CanvasRef } from '../repo/list-canvases.js';
import type { RepoReader } from '../repo/repo-reader.js';
import { snapshotCrossings } from './snapshot-crossings.js';
import { canvasFile } from '../repo/layout.js';
import { canvasNotFound } from '../repo/canvas-not-found.js';

/**
 * Read the snapshots of many canvases at their revisions (docs/site.md, "How the build reads"):
 * what {@link readSnapshot} gives for each, read in rounds through the open batch rather than
 * one object at a time: one round for every document, one for the facts caches' create commits,
 * one per depth of the recent edits (each commit names the one before it), and one for the
 * freezes. The revisions are the ones {@link listCanvases} gave, which checked the refs against
 * main; each document is parsed and checked as every read path checks it.
 *
 * @param reader - an open reader of the repository
 * @param refs - the canvases and their revisions
 * @param edits - how many recent edits each snapshot holds (default 10)
 * @returns for each canvas, in the order given, its snapshot or the CanvasError it fails with:
 *   `CANVAS_NOT_FOUND` (no document at its revision), `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`,
 *   `NESTING` (the stored bytes), `INTERNAL` (a broken chain)
 */
export async function readSnapshots(reader: RepoReader, refs: readonly CanvasRef[], edits = 10): Promise<Array<Snapshot | CanvasError>> {
  const cached = refs.map(({ ledger }) => cachedHistories(reader, ledger));
  /** Per canvas: the recent edits its history cache holds, when it holds enough of them. */
  const recentCached = cached.map((h) => recentOf(h, edits));
  /** Per canvas: how many of the walked commits are newer than its cached histories, once reached. */
  const newer: Array<number | null> = refs.map((r, i) => (cached[i]?.revision === r.revision ? 0 : null));
  // The documents and the facts caches' create commits in one round (git answers them in the
  // order asked), with the first round of the chains that need one.
  const blobsRead = reader.blobs(refs.map((r) => [r.revision, canvasFile(r.ledger)] as const));
  // A canvas whose facts cannot be folded (its chain broken) fails alone, below: then the facts
  // are read again for the canvases that can be.
  const factsRead = canvasFactsOfMany(reader, refs, true).catch(() => null);
  // Awaited below; handled now, so a failing read is never an unhandled rejection meanwhile.
  blobsRead.catch(() => undefined);
  const gitDir = join(reader.ws.repo, '.git');
  const failed: Array<CanvasError | null> = refs.map(() => null);
  // The chains walked side by side, one round per depth, down to the revision each canvas's node
  // histories were cached at (all the way without one) and deep enough for the recent edits when
  // that cache does not hold them.
  const walked: CanvasCommit[][] = refs.map(() => []);
  let heads: Array<string | null> = refs.map((r, i) => (newer[i] === 0 && recentCached[i] !== null ? null : r.revision));
  for (;;) {
    const asked = heads.flatMap((h, i) => (h ? [{ i, sha: h }] : []));
    if (asked.length === 0) break;
    const got = await reader.commits(asked.map((a) => a.sha));
    heads = refs.map(() => null);
    asked.forEach(({ i, sha }, k) => {
      const c = got[k];
      if (!c) {
        failed[i] = new CanvasError('INTERNAL', `the canvas chain is broken at ${sha}`, 'run `canvas verify`', { commit: sha });
        return;
      }
      const w = walked[i]!;
      if (newer[i] === null && c.sha === cached[i]?.revision) newer[i] = w.length;
      w.push(c);
      const previous = c.trailers['Canvas-Previous'];
      if (previous !== undefined && ((w.length < edits && recentCached[i] === null) || newer[i] === null)) heads[i] = previous;
    });
  }
  const blobs = await blobsRead;
  refs.forEach(({ ledger }, i) => {
    if (!blobs[i]) failed[i] = canvasNotFound(reader.ws.root, ledger);
  });
  const ok = refs.flatMap((_, i) => (failed[i] ? [] : [i]));
  // The facts cache is saved for each head (never an authority; keyed by revision), as a read of
  // one canvas saves it.
  const allFacts = await factsRead;
  const facts = allFacts
    ? ok.map((i) => allFacts[i]!)
    : await canvasFactsOfMany(
        reader,
        ok.map((i) => refs[i]!),
        true,
      );
  const frozenAt = await reader.commits(facts.flatMap((f) => [f.frozen?.commit, f.ending?.commit].filter((c): c is string => c !== undefined)));
  const timeOf = new Map(frozenAt.filter((c): c is CanvasCommit => c !== null).map((c) => [c.sha, c.time]));
  const out: Array<Snapshot | CanvasError> = failed.map((f) => f ?? new CanvasError('INTERNAL', 'not read', 'run `canvas verify`'));
  ok.forEach((i, k) => {
    const { ledger, revision } = refs[i]!;
    const f = facts[k]!;
    try {
      // The tree cache's tree when it is these bytes' (docs/store.md, "Reads"), else parsed.
      const canvas = cachedCanvasTree(gitDir, ledger, blobs[i]!.content, blobs[i]!.sha);
      const w = walked[i]!;
      // The commits walked newer than the cached histories, then the ones that cache holds; else
      // the walk went deep enough for them.
      const fromCache = newer[i] === null ? null : (recentCached[i] ?? null);
      const recentEdits = fromCache ? [...w.slice(0, newer[i]!).map(editRecord), ...fromCache].slice(0, edits) : w.slice(0, edits).map(editRecord);
      const dateOf = (sha: string) => new Date((timeOf.get(sha) ?? 0) * 1000).toISOString();
      const frozen = f.frozen ? { ...f.frozen, date: dateOf(f.frozen.commit) } : null;
      const e = f.ending;
      const ending: Snapshot['ending'] = e
        ? { kind: e.op === 'freeze' ? 'frozen' : 'abandoned', commit: e.commit, reason: e.reason, author: e.author, date: dateOf(e.commit), editedSince: e.editedSince }
        : null;
      // As a read at the canvas's head saves them (docs/projections.md, "Why is this here?").
      const h = cached[i] ?? null;
      const all = newer[i] === 0 && h?.revision === revision ? new Map(h.nodes) : foldHistories(reader, ledger, revision, w.slice(0, newer[i] ?? w.length), newer[i] === null ? null : h, true);
      const history = Object.fromEntries([...indexNodes(canvas).keys()].map((id) => [id, all.get(id) ?? []]));
      out[i] = { ledger, revision, canvas, frozen, ending, lastEdit: recentEdits[0] ?? null, recentEdits, crossings: snapshotCrossings(canvas, f), history };
    } catch (e) {
      out[i] = e instanceof CanvasError ? e : new CanvasError('INTERNAL', String((e as Error)?.message ?? e), 'run `canvas verify`');
    }
  });
  return out;
}
