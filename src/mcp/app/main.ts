// The view an MCP host draws beside the conversation (docs/mcp.md, "The canvas in chat hosts"):
// the canvas's page as `canvas build` renders it, read-only, kept at the canvas's revision
// through the host, never through a connection of its own. Every call it makes goes through the
// host to the server the host already holds: canvas_history for the revision, resources/read
// for the page at it.
import { connectToHost } from './host-link.js';

/** How often the view asks whether the canvas moved while it is shown, in ms. */
const EVERY = 2000;

const me = document.querySelector<HTMLScriptElement>('script[data-canvas-ledger]');
const LEDGER = me?.dataset.canvasLedger ?? '';
const WORKSPACE = me?.dataset.canvasWorkspace ?? '';
const URI = `ui://canvas/${LEDGER}`;

/** The revision the page shows (its header says it). */
const shown = (): string | undefined => document.querySelector('code.revision')?.textContent ?? undefined;

let stopped = false;
let busy: Promise<void> | null = null;

/** The part of the Mermaid module the page's own start-up uses. */
interface Mermaid {
  initialize(config: { startOnLoad: boolean; securityLevel: string }): void;
  run(options: { nodes: Element[]; suppressErrors: boolean }): Promise<void>;
}

/**
 * Draw the Mermaid figures an update brought, with the module the page loaded at its start (its
 * policy admits the pinned module only when the page had a Mermaid figure then; otherwise the
 * source stays, readable, as on a page offline).
 */
async function drawFigures(): Promise<void> {
  const blocks = [...document.querySelectorAll('main pre.mermaid:not([data-processed])')];
  const entry = document.querySelector<HTMLScriptElement>('head script[type="module"][src][integrity]')?.src;
  if (blocks.length === 0 || !entry) return;
  try {
    const { default: mermaid } = (await import(entry)) as { default: Mermaid };
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    await mermaid.run({ nodes: blocks, suppressErrors: true });
  } catch {
    // Offline, or refused: the figure stays as its source.
  }
}

const link = await connectToHost(
  { name: 'canvas', version: '1' },
  (method, params) => {
    // A result of a tool that read the canvas may carry a newer revision than the page shows.
    if (method !== 'ui/notifications/tool-result') return;
    const revision = (params.structuredContent as { revision?: unknown } | undefined)?.revision;
    if (typeof revision === 'string' && revision !== shown()) void catchUp(revision);
  },
  (method) => {
    if (method !== 'ui/resource-teardown') return undefined;
    stopped = true;
    return {};
  },
);

/** Read the page again through the host and put its body in place of this one's, keeping the node in view. */
async function redraw(): Promise<void> {
  const read = await link.request<{ contents: Array<{ text?: string }> }>('resources/read', { uri: URI });
  const text = read.contents[0]?.text;
  if (text === undefined) return;
  const fresh = new DOMParser().parseFromString(text, 'text/html');
  const anchor = [...document.querySelectorAll('main [id]')].find((n) => n.getBoundingClientRect().top >= 0);
  const top = anchor?.getBoundingClientRect().top ?? 0;
  document.body.replaceChildren(...[...fresh.body.childNodes].map((n) => document.adoptNode(n)));
  const again = anchor && document.getElementById(anchor.id);
  if (again) window.scrollBy(0, again.getBoundingClientRect().top - top);
  await drawFigures();
}

/** The canvas's revision now, as canvas_history's newest commit names it. */
async function revisionNow(): Promise<string | undefined> {
  const r = await link.request<{ structuredContent?: { commits?: Array<{ commit?: unknown }> } }>('tools/call', {
    name: 'canvas_history',
    arguments: { workspace: WORKSPACE, ledger: LEDGER, limit: 1 },
  });
  const commit = r.structuredContent?.commits?.[0]?.commit;
  return typeof commit === 'string' ? commit : undefined;
}

/** Bring the page to `to` (else to the revision now) when it shows another; one at a time. */
function catchUp(to?: string): Promise<void> {
  busy ??= (async () => {
    try {
      const now = to ?? (await revisionNow());
      if (now !== undefined && now !== shown()) await redraw();
    } catch (e) {
      console.warn(`canvas view: ${(e as Error).message}`);
    } finally {
      busy = null;
    }
  })();
  return busy;
}

function poll(): void {
  if (stopped) return;
  const next = () => setTimeout(poll, EVERY);
  if (document.hidden) next();
  else void catchUp().then(next);
}

// The host sizes the view to its content when its container is flexible.
let sent = '';
new ResizeObserver(() => {
  const size = { width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) };
  if (`${size.width}x${size.height}` === sent) return;
  sent = `${size.width}x${size.height}`;
  link.notify('ui/notifications/size-changed', size);
}).observe(document.documentElement);

// A link leaves the sandbox through the host, which may ask the person first.
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a[href]');
  const href = a?.getAttribute('href') ?? '';
  if (!/^(https?|mailto):/i.test(href)) return;
  e.preventDefault();
  link.request('ui/open-link', { url: href }).catch(() => undefined);
});

setTimeout(poll, EVERY);
