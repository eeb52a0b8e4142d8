// The live canvas tab (docs/serve.md): the one script `canvas serve` adds to the pages `canvas
// build` makes, bundled by the build into `/_canvas/live.js`. It keeps the page at the canvas's
// revision as the canvas moves (one event stream from the server's ref watcher), says so when it
// cannot, and gives each node controls that POST one edit to the server, which calls the store's
// verbs. It never reads the page back as the canvas: a form starts from the canvas tree the
// server reads, at the revision the page shows. Everything from the canvas is put in the page as
// text (textContent), never as markup.
import { addDeskControls } from './desk.js';
import { short } from './dom.js';
import { connect } from './events.js';
import { loadSession } from './session.js';
import { live, ON_CANVAS } from './state.js';
import { setStatus } from './status.js';

setStatus('connecting', ON_CANVAS ? `Connecting: this page shows revision ${short(live.shown)}.` : 'Connecting…');
await loadSession().catch(() => {});
await addDeskControls().catch(() => {});
connect();
