// The page's session: who is writing, with what role on this canvas, and the pending proposals.
import { addControls } from './controls.js';
import { proposalsView } from './proposals.js';
import { canvasPath, live, ON_CANVAS } from './state.js';
import { getJson, type WireSession } from './wire.js';

/** Read the session again and redraw what depends on it: the controls and the proposals. */
export async function loadSession(): Promise<void> {
  if (!ON_CANVAS) return;
  const session = await getJson<WireSession>(canvasPath('_session'));
  live.session = session;
  document.body.dataset.role = session.role ?? 'none';
  addControls();
  proposalsView();
}
