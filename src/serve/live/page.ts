// Updating the page in place as the canvas moves: swap the projection's parts, keep the scroll
// position and the open editor, draw the Mermaid figures an update brought, and say what changed.
import { addControls, counterpart } from './controls.js';
import { addDeskControls } from './desk.js';
import { el, short } from './dom.js';
import { loadSession } from './session.js';
import { canvasPath, LEDGER, live, ON_CANVAS } from './state.js';
import { liveText, setStatus, showNews } from './status.js';
import { getJson, type WireChanges } from './wire.js';

function firstVisibleNode(): { id: string; top: number } | null {
  for (const n of document.querySelectorAll('main [id]')) {
    const top = n.getBoundingClientRect().top;
    if (top >= 0) return { id: n.id, top };
  }
  return null;
}

/** Scroll so that the node that was first in view is where it was. */
function keepInView(anchor: { id: string; top: number } | null): void {
  const again = anchor && document.getElementById(anchor.id);
  if (anchor && again) window.scrollBy(0, again.getBoundingClientRect().top - anchor.top);
}

/** The pinned Mermaid entry a page loads: `<script type="module" src integrity crossorigin>`. */
const MERMAID_ENTRY = 'head script[type="module"][src][integrity]';

/** Load the pinned entry into this page as the page itself would: the same URL, checked by its hash. */
function loadEntry(pinned: Element): Promise<string> {
  const src = pinned.getAttribute('src') ?? '';
  const present = [...document.querySelectorAll(MERMAID_ENTRY)].some((s) => s.getAttribute('src') === src);
  if (present) return Promise.resolve(src);
  return new Promise((resolve, reject) => {
    const script = el('script', { type: 'module', src, integrity: pinned.getAttribute('integrity'), crossorigin: 'anonymous' });
    script.addEventListener('load', () => resolve(src));
    script.addEventListener('error', () => reject(new Error(`the Mermaid module did not load from ${src}`)));
    document.head.append(script);
  });
}

/** The part of the Mermaid module the page uses. */
interface Mermaid {
  initialize(config: { startOnLoad: boolean; securityLevel: string }): void;
  run(options: { nodes: Element[]; suppressErrors: boolean }): Promise<void>;
}

/**
 * Draw the Mermaid figures an update brought (the swapped parts hold their source), with the
 * pinned module the new page names, started as the page's own start-up module starts it: the
 * strict security level, only `pre.mermaid` blocks, each drawing at its own width. The module
 * is imported from the URL its integrity-checked script element loaded, so it is that module.
 * When it cannot load (offline), the source stays, readable, as on the static page.
 */
async function drawMermaid(fresh: Document): Promise<void> {
  const blocks = [...document.querySelectorAll('main pre.mermaid:not([data-processed])')];
  const pinned = fresh.querySelector(MERMAID_ENTRY) ?? document.querySelector(MERMAID_ENTRY);
  if (blocks.length === 0 || !pinned) return;
  try {
    const { default: mermaid } = (await import(await loadEntry(pinned))) as { default: Mermaid };
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    await mermaid.run({ nodes: blocks, suppressErrors: true });
  } catch (e) {
    console.warn(`canvas serve: a Mermaid figure stays as its source: ${(e as Error).message}`);
    return;
  }
  for (const svg of document.querySelectorAll<SVGSVGElement>('main pre.mermaid svg')) {
    const width = svg.viewBox.baseVal?.width;
    if (width) svg.setAttribute('width', String(width));
  }
}

/** Read the page again from the server and swap its parts in place. */
export async function refresh(): Promise<void> {
  const r = await fetch(ON_CANVAS ? `/${encodeURIComponent(LEDGER)}/` : '/', { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`reload failed: ${r.status}`);
  const fresh = new DOMParser().parseFromString(await r.text(), 'text/html');
  const anchor = firstVisibleNode();
  const focused = document.activeElement;
  // The index's search and order, which its own script keeps across the swap (templates/index.js).
  const kept = ON_CANVAS ? null : { search: document.querySelector<HTMLInputElement>('#index-search')?.value ?? '', sort: document.querySelector<HTMLSelectElement>('#index-sort')?.value ?? 'name' };
  for (const sel of ['header.masthead', '#questions', 'main', 'body > footer']) {
    const now = document.querySelector(sel);
    const next = fresh.querySelector(sel);
    if (now && next) now.replaceWith(document.adoptNode(next));
    else if (now && !next) now.remove();
    else if (!now && next && sel === '#questions') document.querySelector('main')?.before(document.adoptNode(next));
  }
  keepInView(anchor);
  live.shown = document.querySelector('code.revision')?.textContent ?? live.shown;
  addControls();
  if (kept) {
    document.dispatchEvent(new CustomEvent('canvas:index-swapped', { detail: kept }));
    await addDeskControls();
  }
  // A control that had the focus was redrawn with its node: its counterpart takes the focus.
  if (focused instanceof HTMLElement && focused !== document.body && !focused.isConnected) counterpart(focused)?.focus();
  if (ON_CANVAS) {
    await drawMermaid(fresh);
    keepInView(anchor);
  }
}

/** Bring the page to revision `to` (the index: to now), and say what changed since the page's. */
export async function catchUp(to: string | undefined): Promise<void> {
  if (!ON_CANVAS || to === live.shown) {
    if (!ON_CANVAS) await refresh();
    setStatus('live', liveText());
    return;
  }
  const base = live.shown ?? '';
  // Both at once: what changed since the page's revision, and the page at the new one.
  const [changes] = await Promise.all([getJson<WireChanges>(canvasPath(`_since?base=${encodeURIComponent(base)}`)), refresh()]);
  if (changes.commits.length > 0) showNews(changes);
  const editing = live.editing;
  if (editing) {
    editing.notice.textContent = `The canvas moved to ${short(live.shown)} while you edit; your edit is still decided against ${short(editing.base)}, and the store will say if your node changed.`;
  }
  await loadSession();
  setStatus('live', liveText());
}
