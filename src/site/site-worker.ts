// A worker of the site build's pool (docs/site.md, "Every core"): it loads the renderers once,
// then builds each batch of canvases it is sent, through its own `git cat-file --batch`, and
// answers with the batch's results. `scripts/build.js` bundles it as dist/cli/site-worker.cjs.
import { parentPort, workerData } from 'node:worker_threads';
import type { CanvasRef } from '../store/index.js';
import { buildCanvases } from './build-canvases.js';
import { loadRenderers } from './load-renderers.js';
import type { WorkerData } from './render-pool.js';

const { ws, out, vendoredMermaid } = workerData as WorkerData;
const port = parentPort!;
// The same renderers as the build's own thread: the site's Mermaid when it carries one.
const renderers = loadRenderers({ vendoredMermaid });
port.on('message', (message: { id: number; refs: CanvasRef[] }) => {
  void (async () => {
    try {
      port.postMessage({ id: message.id, results: await buildCanvases(ws, message.refs, out, await renderers) });
    } catch (e) {
      port.postMessage({ id: message.id, error: String((e as Error)?.stack ?? e) });
    }
  })();
});
