// The event stream: one for the page; the browser reconnects, and the page says when it is not live.
import { catchUp } from './page.js';
import { LEDGER, live, ON_CANVAS } from './state.js';
import { liveText, setStatus, showRemote, stale } from './status.js';
import type { WireRemote } from './wire.js';

/** One catch-up at a time, in order: a burst of changes is read as they come, never interleaved. */
let catching: Promise<void> = Promise.resolve();
function schedule(to: string | undefined): void {
  catching = catching.then(() => catchUp(to)).catch(stale);
}

/** Follow the server's event stream: `hello` on (re)connecting, `change` per moved ref, `remote`. */
export function connect(): void {
  const events = new EventSource('/_events');
  let lost = false;
  events.addEventListener('hello', (e) => {
    const revisions = JSON.parse(e.data) as Record<string, string>;
    const mine = revisions[LEDGER];
    if (lost || (ON_CANVAS && mine && mine !== live.shown)) schedule(mine);
    else setStatus('live', liveText());
    lost = false;
  });
  events.addEventListener('change', (e) => {
    const changes = JSON.parse(e.data) as Array<{ ledger: string; to?: string }>;
    const mine = changes.find((c) => c.ledger === LEDGER);
    if (!ON_CANVAS || mine) schedule(mine?.to);
  });
  events.addEventListener('remote', (e) => {
    live.remote = JSON.parse(e.data) as WireRemote;
    showRemote();
  });
  events.addEventListener('error', () => {
    lost = true;
    stale();
  });
}
