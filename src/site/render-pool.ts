import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CanvasError } from '../model/canvas-error.js';
import type { CanvasRef, Workspace } from '../store/index.js';
import { buildCanvases, type CanvasResult, type SiteOut } from './build-canvases.js';
import type { SiteRenderers } from './site-types.js';
import { inHistoryOrder } from './history-order.js';

/** The most canvases in a batch: what one worker reads in one set of rounds, then renders. */
const BATCH = 16;
/** Batches given to each worker at once: one renders while the next one's reads are answered. */
const AHEAD = 2;
/**
 * The fewest canvases worth a worker: a thread loads and compiles the renderers before its first
 * page (tens of milliseconds of CPU), which a handful of canvases does not repay.
 */
const PER_WORKER = 8;

/** The number of workers a build uses by default: one per core the process may use. */
export function defaultWorkers(): number {
  return availableParallelism();
}

/** What a worker is started with: the workspace, the output, and whether the pages load the site's own Mermaid. */
export interface WorkerData {
  ws: Workspace;
  out: SiteOut;
  vendoredMermaid: boolean;
}

/**
 * The worker's script beside this module: the bundle's `site-worker.cjs` when running from
 * `dist/cli`, the compiled `site-worker.js` from `dist/`, and from the TypeScript sources (tests,
 * benchmarks) the source itself through tsx's loader, registered inside the worker.
 */
function startWorker(workerData: WorkerData): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    // tsx's ES module API, from its package's exports (its CommonJS API registers a path that is not there).
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
    const api = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
    const tsx = pathToFileURL(join(dirname(manifest), api)).href;
    const source = new URL('./site-worker.ts', import.meta.url).href;
    return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); })`, { eval: true, workerData });
  }
  return new Worker(new URL(here.endsWith('.cjs') ? './site-worker.cjs' : './site-worker.js', import.meta.url), { workerData });
}

/** Something that builds a batch of canvases: this thread, or one worker. */
type Builder = { run: (refs: CanvasRef[]) => Promise<CanvasResult[]>; stop: () => Promise<unknown> };

function inThread(ws: Workspace, out: SiteOut, renderers: () => Promise<SiteRenderers>): Builder {
  return { run: async (refs) => buildCanvases(ws, refs, out, await renderers()), stop: async () => undefined };
}

function inWorker(data: WorkerData): Builder {
  const worker = startWorker(data);
  const waiting = new Map<number, { resolve: (r: CanvasResult[]) => void; reject: (e: Error) => void }>();
  let next = 0;
  // Once the worker has failed or ended, every batch asked of it fails at once (none waits forever).
  let dead: Error | null = null;
  const fail = (e: Error) => {
    dead ??= e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('message', (m: { id: number; results?: CanvasResult[]; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.results) w?.resolve(m.results);
    else w?.reject(new CanvasError('INTERNAL', `a worker of the site build failed: ${m.error}`, 'run `canvas build --workers 1` to build in one thread'));
  });
  worker.on('error', (e) => fail(new CanvasError('INTERNAL', `a worker of the site build failed: ${e.stack ?? e.message}`, 'run `canvas build --workers 1` to build in one thread')));
  worker.on('exit', (code) => fail(new CanvasError('INTERNAL', `a worker of the site build exited (${code})`, 'run `canvas build --workers 1` to build in one thread')));
  return {
    run: (refs) =>
      new Promise((resolve, reject) => {
        if (dead) return reject(dead);
        const id = next++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, refs });
      }),
    stop: () => worker.terminate(),
  };
}

/**
 * Build canvases' folders on every core (docs/site.md, "Every core"): batches of canvases go to
 * `workers` threads, this one and `workers - 1` worker threads (each with its renderers and its
 * own `git cat-file --batch`), a few batches ahead, the next batch to whichever answers first,
 * in the order their revisions were committed ({@link inHistoryOrder}); with one worker, or one
 * batch, only this thread builds. What is written does not depend on the number of workers: each
 * canvas's folder is a function of its snapshot, and the results are keyed by ledger.
 *
 * @param ws - the workspace
 * @param refs - the canvases to build, at their revisions
 * @param out - the output directory, judged by the caller
 * @param options - `workers` (at least 1), the renderers for this thread, whether the pages load
 *   the site's own Mermaid (docs/site.md, "Mermaid offline": a worker loads its renderers so),
 *   and a callback per result
 * @returns one result per canvas, in the order given
 * @throws CanvasError `INTERNAL` when a worker itself fails (a failing canvas does not: it is a result)
 */
export async function buildInPool(
  ws: Workspace,
  refs: readonly CanvasRef[],
  out: SiteOut,
  options: { workers: number; vendoredMermaid: boolean; renderers: () => Promise<SiteRenderers>; onResult: (r: CanvasResult) => void },
): Promise<CanvasResult[]> {
  const count = Math.max(1, Math.min(options.workers, Math.ceil(refs.length / PER_WORKER)));
  // Small enough batches that every worker has several, so none idles at the end.
  const size = Math.max(1, Math.min(BATCH, Math.ceil(refs.length / (count * AHEAD * 2))));
  // Handed out in history order, so git builds each revision's root tree from the one before.
  const ordered = refs.length > BATCH ? await inHistoryOrder(ws, refs) : refs;
  const batches: CanvasRef[][] = [];
  for (let i = 0; i < ordered.length; i += size) batches.push(ordered.slice(i, i + size));
  // This thread renders beside count - 1 workers: it would otherwise only wait for them, and each
  // worker loads and compiles the renderers again.
  const builders = [inThread(ws, out, options.renderers), ...Array.from({ length: count - 1 }, () => inWorker({ ws, out, vendoredMermaid: options.vendoredMermaid }))];
  const byLedger = new Map<string, CanvasResult>();
  let taken = 0;
  const drive = async (b: Builder): Promise<void> => {
    while (taken < batches.length) {
      const batch = batches[taken++]!;
      for (const r of await b.run(batch)) {
        byLedger.set(r.ledger, r);
        options.onResult(r);
      }
    }
  };
  try {
    await Promise.all(builders.flatMap((b) => Array.from({ length: AHEAD }, () => drive(b))));
  } finally {
    await Promise.all(builders.map((b) => b.stop()));
  }
  return refs.map((r) => byLedger.get(r.ledger)!);
}
