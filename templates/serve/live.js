// The live canvas tab (docs/serve.md): the one script `canvas serve` adds to the pages `canvas
// build` makes. It keeps the page at the canvas's revision as the canvas moves (one event stream
// from the server's ref watcher), says so when it cannot, and gives each node controls that POST
// one edit to the server, which calls the store's verbs. It never reads the page back as the
// canvas: a form starts from the canvas tree the server reads, at the revision the page shows.
// Everything from the canvas is put in the page as text (textContent), never as markup.

const LEDGER = decodeURIComponent(location.pathname.split('/')[1] ?? '');
const ON_CANVAS = LEDGER !== '' && LEDGER !== 'index.html';

/** The revision the page shows (the page's own `code.revision`). */
let shown = document.querySelector('code.revision')?.textContent ?? null;
let session = null;
/** The open editor, if any: { panel, base, node, opener }. */
let editing = null;

function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

const short = (sha) => (sha ? sha.slice(0, 7) : '');

async function getJson(path) {
  const r = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = await r.json();
  if (!r.ok) throw Object.assign(new Error(body.error?.message ?? r.statusText), { body });
  return body;
}

async function postJson(path, body) {
  const r = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  return r.json();
}

// ---------------------------------------------------------------------------------------------
// The status line: what revision the page shows, and whether it is live.

const status = el('div', { id: 'live-status', class: 'live-status', role: 'status', 'aria-live': 'polite' });
const news = el('section', { id: 'live-news', class: 'live-news', 'aria-label': 'What changed', hidden: true });
document.body.prepend(status, news);

function setStatus(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

/** The server's sync with a shared remote while it fails: `{url, error, synced}`; else null. */
let remote = null;

function remoteNote() {
  if (!remote?.error) return '';
  const since = remote.synced ? ` since ${new Date(remote.synced).toLocaleTimeString()}` : '';
  return ` Not synced with the shared remote${since} (${remote.error}): another machine's changes may be missing.`;
}

function liveText() {
  const here = ON_CANVAS ? `Live: this page shows revision ${short(shown)}, the canvas's latest.` : 'Live: this index shows every canvas as it is now.';
  return `${here}${remoteNote()}`;
}

// ---------------------------------------------------------------------------------------------
// What changed: the commits between two revisions with their authors and reasons, and the diff.

function commitLine(c) {
  return el('li', {}, [
    el('span', { class: 'edit', text: `${c.op}${c.node ? ` ${c.node}` : ''} by ${c.author}` }),
    ': ',
    el('span', { class: 'reason', text: c.reason }),
    ' ',
    el('code', { class: 'sha', title: c.commit, text: short(c.commit) }),
  ]);
}

function diffList(diff) {
  return el(
    'ul',
    { class: 'live-diff' },
    diff.map((d) =>
      el('li', {}, [
        el('strong', { text: `${d.change} ${d.node}` }),
        d.before ? el('p', { class: 'live-hint', text: `Before (v${d.before.v}, in ${d.before.parent}):` }) : null,
        d.before ? el('pre', { class: 'before', text: d.before.xml }) : null,
        d.after ? el('p', { class: 'live-hint', text: `Now (v${d.after.v}, in ${d.after.parent}):` }) : null,
        d.after ? el('pre', { class: 'after', text: d.after.xml }) : null,
        el('ol', {}, (d.commits ?? []).map(commitLine)),
      ]),
    ),
  );
}

/** The revisions this page's own writes made: their news is the editor's outcome, not repeated. */
const own = new Set();

function showNews(all) {
  const changes = { ...all, commits: all.commits.filter((c) => !own.has(c.commit)), diff: all.diff.filter((d) => !(d.commits ?? []).every((c) => own.has(c.commit))) };
  if (changes.commits.length === 0) return;
  news.replaceChildren(
    el('h2', { text: `Changed since revision ${short(changes.base)}` }),
    el('ol', { class: 'live-commits' }, changes.commits.map(commitLine)),
    changes.diff.length > 0 ? diffList(changes.diff) : el('p', { text: 'No node changed (grants, proposals or a freeze).' }),
    el('button', { type: 'button', class: 'live-dismiss', text: 'Dismiss', onclick: () => (news.hidden = true) }),
  );
  news.hidden = false;
}

// ---------------------------------------------------------------------------------------------
// Updating in place: swap the projection's parts, keep the scroll position and the open editor.

function firstVisibleNode() {
  for (const n of document.querySelectorAll('main [id]')) {
    const top = n.getBoundingClientRect().top;
    if (top >= 0) return { id: n.id, top };
  }
  return null;
}

/** Scroll so that the node that was first in view is where it was. */
function keepInView(anchor) {
  const again = anchor && document.getElementById(anchor.id);
  if (again) window.scrollBy(0, again.getBoundingClientRect().top - anchor.top);
}

/** The pinned Mermaid entry a page loads: `<script type="module" src integrity crossorigin>`. */
const MERMAID_ENTRY = 'head script[type="module"][src][integrity]';

/** Load the pinned entry into this page as the page itself would: the same URL, checked by its hash. */
function loadEntry(pinned) {
  const src = pinned.getAttribute('src');
  const present = [...document.querySelectorAll(MERMAID_ENTRY)].some((s) => s.getAttribute('src') === src);
  if (present) return Promise.resolve(src);
  return new Promise((resolve, reject) => {
    const script = el('script', { type: 'module', src, integrity: pinned.getAttribute('integrity'), crossorigin: 'anonymous' });
    script.addEventListener('load', () => resolve(src));
    script.addEventListener('error', () => reject(new Error(`the Mermaid module did not load from ${src}`)));
    document.head.append(script);
  });
}

/**
 * Draw the Mermaid figures an update brought (the swapped parts hold their source), with the
 * pinned module the new page names, started as the page's own start-up module starts it: the
 * strict security level, only `pre.mermaid` blocks, each drawing at its own width. The module
 * is imported from the URL its integrity-checked script element loaded, so it is that module.
 * When it cannot load (offline), the source stays, readable, as on the static page.
 */
async function drawMermaid(fresh) {
  const blocks = [...document.querySelectorAll('main pre.mermaid:not([data-processed])')];
  const pinned = fresh.querySelector(MERMAID_ENTRY) ?? document.querySelector(MERMAID_ENTRY);
  if (blocks.length === 0 || !pinned) return;
  try {
    const { default: mermaid } = await import(await loadEntry(pinned));
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    await mermaid.run({ nodes: blocks, suppressErrors: true });
  } catch (e) {
    console.warn(`canvas serve: a Mermaid figure stays as its source: ${e.message}`);
    return;
  }
  for (const svg of document.querySelectorAll('main pre.mermaid svg')) {
    const width = svg.viewBox.baseVal?.width;
    if (width) svg.setAttribute('width', String(width));
  }
}

async function refresh() {
  const r = await fetch(ON_CANVAS ? `/${encodeURIComponent(LEDGER)}/` : '/', { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`reload failed: ${r.status}`);
  const fresh = new DOMParser().parseFromString(await r.text(), 'text/html');
  const anchor = firstVisibleNode();
  const focused = document.activeElement;
  for (const sel of ['header.masthead', '#questions', 'main', 'body > footer']) {
    const now = document.querySelector(sel);
    const next = fresh.querySelector(sel);
    if (now && next) now.replaceWith(document.adoptNode(next));
    else if (now && !next) now.remove();
    else if (!now && next && sel === '#questions') document.querySelector('main')?.before(document.adoptNode(next));
  }
  keepInView(anchor);
  shown = document.querySelector('code.revision')?.textContent ?? shown;
  addControls();
  // A control that had the focus was redrawn with its node: its counterpart takes the focus.
  if (focused && focused !== document.body && !focused.isConnected) counterpart(focused)?.focus();
  if (ON_CANVAS) {
    await drawMermaid(fresh);
    keepInView(anchor);
  }
}

async function catchUp(to) {
  if (!ON_CANVAS || to === shown) {
    if (!ON_CANVAS) await refresh();
    setStatus('live', liveText());
    return;
  }
  const base = shown;
  // Both at once: what changed since the page's revision, and the page at the new one.
  const [changes] = await Promise.all([getJson(`/${encodeURIComponent(LEDGER)}/_since?base=${encodeURIComponent(base)}`), refresh()]);
  if (changes.commits.length > 0) showNews(changes);
  if (editing) editing.notice.textContent = `The canvas moved to ${short(shown)} while you edit; your edit is still decided against ${short(editing.base)}, and the store will say if your node changed.`;
  await loadSession();
  setStatus('live', liveText());
}

// ---------------------------------------------------------------------------------------------
// The event stream: one for the page; the browser reconnects, and the page says when it is not live.

/** One catch-up at a time, in order: a burst of changes is read as they come, never interleaved. */
let catching = Promise.resolve();
function schedule(to) {
  catching = catching.then(() => catchUp(to)).catch(stale);
}

function connect() {
  const events = new EventSource('/_events');
  let lost = false;
  events.addEventListener('hello', (e) => {
    const revisions = JSON.parse(e.data);
    if (lost || (ON_CANVAS && revisions[LEDGER] && revisions[LEDGER] !== shown)) schedule(revisions[LEDGER]);
    else setStatus('live', liveText());
    lost = false;
  });
  events.addEventListener('change', (e) => {
    const changes = JSON.parse(e.data);
    const mine = changes.find((c) => c.ledger === LEDGER);
    if (!ON_CANVAS || mine) schedule(mine?.to);
  });
  events.addEventListener('remote', (e) => {
    remote = JSON.parse(e.data);
    status.dataset.remote = remote.error ? 'failing' : 'synced';
    if (status.dataset.state === 'live') setStatus('live', liveText());
  });
  events.addEventListener('error', () => {
    lost = true;
    stale();
  });
}

function stale() {
  setStatus(
    'stale',
    ON_CANVAS
      ? `Not live: this page shows revision ${short(shown)}, which may be old. Reconnecting…`
      : 'Not live: this index may be old. Reconnecting…',
  );
}

// ---------------------------------------------------------------------------------------------
// The reason: the store's rule, given by the server, checked here before anything is sent.

function reasonProblem(text) {
  const rule = session?.reason;
  if (text.trim() === '') return 'A reason is required: one line that says why.';
  if (rule && new RegExp(rule.pattern, rule.flags).test(text)) return 'The reason must be one line, with no line break or control character.';
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) return 'The reason holds a broken character.';
  if (rule && [...text].length > rule.max) return `The reason is ${[...text].length} characters long; the limit is ${rule.max}.`;
  return null;
}

/**
 * The reason field: a one-row textarea, so a pasted line break stays in it and is refused by the
 * rule rather than dropped without a word (a text input strips it); Enter submits.
 */
function reasonField(attrs) {
  const t = el('textarea', { class: 'live-why', rows: 1, ...attrs });
  t.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      t.form?.requestSubmit();
    }
  });
  return t;
}

// ---------------------------------------------------------------------------------------------
// Forms that fit each node type. Each returns { fields, value() } where value() is the node.

let uid = 0;
function field(label, input) {
  const id = `live-f${++uid}`;
  input.id = id;
  return el('div', { class: 'live-field' }, [el('label', { for: id, text: label }), input]);
}

function textArea(value, rows = 4) {
  const t = el('textarea', { rows });
  t.value = value ?? '';
  return t;
}

function textInput(value) {
  const t = el('input', { type: 'text' });
  t.value = value ?? '';
  return t;
}

function checkBox(label, checked) {
  const id = `live-f${++uid}`;
  const box = el('input', { type: 'checkbox', id });
  box.checked = Boolean(checked);
  return { box, wrap: el('div', { class: 'live-field live-check' }, [box, el('label', { for: id, text: label })]) };
}

function tableForm(rows) {
  let grid = rows.map((r) => [...r]);
  const holder = el('div', { class: 'live-table' });
  const read = () => {
    grid = [...holder.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('input')].map((i) => i.value));
  };
  const draw = () => {
    const body = grid.map((row, ri) =>
      el(
        'tr',
        {},
        row.map((cell, ci) => {
          const i = textInput(cell);
          i.setAttribute('aria-label', `${ri === 0 ? 'header' : `row ${ri}`}, column ${ci + 1}`);
          return el('td', {}, [i]);
        }),
      ),
    );
    const act = (text, f) =>
      el('button', {
        type: 'button',
        text,
        onclick: () => {
          read();
          f();
          draw();
        },
      });
    holder.replaceChildren(
      el('table', {}, [el('tbody', {}, body)]),
      el('div', { class: 'live-actions' }, [
        act('Add row', () => {
          grid.push(grid[0].map(() => ''));
        }),
        act('Remove last row', () => {
          if (grid.length > 1) grid.pop();
        }),
        act('Add column', () => {
          for (const r of grid) r.push('');
        }),
        act('Remove last column', () => {
          if (grid[0].length > 2) for (const r of grid) r.pop();
        }),
      ]),
    );
  };
  draw();
  return {
    fields: [holder],
    value: () => {
      read();
      return { type: 'table', rows: grid };
    },
  };
}

function nodeForm(type, node) {
  switch (type) {
    case 'text': {
      const t = textArea(node?.text);
      return { fields: [field('Text', t)], value: () => ({ type, text: t.value }) };
    }
    case 'question': {
      const t = textArea(node?.text, 3);
      const a = checkBox('Answered', node?.answered);
      return { fields: [field('Question', t), a.wrap], value: () => ({ type, text: t.value, answered: a.box.checked }) };
    }
    case 'section': {
      const t = textInput(node?.title);
      return { fields: [field('Section title', t)], value: () => ({ type, title: t.value }) };
    }
    case 'list': {
      const t = textArea((node?.items ?? ['']).join('\n'), 5);
      const o = checkBox('Numbered', node?.ordered);
      return {
        fields: [field('Items, one per line', t), o.wrap],
        value: () => ({ type, items: t.value.split('\n').filter((s) => s.trim() !== ''), ordered: o.box.checked }),
      };
    }
    case 'table':
      return tableForm(node?.rows ?? [['', ''], ['', '']]);
    case 'link': {
      const h = textInput(node?.href);
      const l = textInput(node?.label);
      return { fields: [field('Address (http, https or mailto)', h), field('Label', l)], value: () => ({ type, href: h.value, label: l.value }) };
    }
    case 'figure': {
      const kind = el('select', {}, ['diagram', 'mermaid', 'svg', 'excalidraw'].map((k) => el('option', { value: k, text: k })));
      kind.value = node?.kind ?? 'diagram';
      const cap = textInput(node?.caption);
      const src = textArea(node?.kind === 'svg' ? (node?.svgSource ?? '') : (node?.source ?? ''), 8);
      const preview = el('div', { class: 'live-preview', 'aria-live': 'polite', 'aria-label': 'Preview' });
      let asked = 0;
      // Drawn by the server with the page's own drawers (a diagram laid out, an svg sanitized);
      // a Mermaid source is shown as text, as the page shows it before its module draws it.
      const show = async () => {
        const mine = ++asked;
        const r = await postJson('/_preview', { node: { type, kind: kind.value, source: src.value } }).catch(() => null);
        if (mine !== asked) return;
        if (r?.svg) {
          const svg = new DOMParser().parseFromString(r.svg, 'image/svg+xml').documentElement;
          preview.replaceChildren(svg.nodeName === 'svg' ? document.adoptNode(svg) : el('p', { text: 'The drawing could not be shown.' }));
        } else if (r?.error) {
          preview.replaceChildren(el('p', { class: 'live-problem', text: `Cannot draw it (${r.error.code}): ${r.error.message}` }));
        } else {
          preview.replaceChildren(el('pre', { text: src.value }));
        }
      };
      let timer = null;
      const later = () => {
        clearTimeout(timer);
        timer = setTimeout(() => void show(), 250);
      };
      src.addEventListener('input', later);
      kind.addEventListener('change', later);
      void show();
      return {
        fields: [field('Kind', kind), field('Caption', cap), field('Source', src), el('p', { class: 'live-hint', text: 'Preview:' }), preview],
        value: () => ({ type, kind: kind.value, caption: cap.value === '' ? undefined : cap.value, source: src.value }),
      };
    }
    default:
      return { fields: [el('p', { text: `No form for ${type}.` })], value: () => null };
  }
}

// ---------------------------------------------------------------------------------------------
// The canvas tree at the page's revision (read by the server through the store).

let tree = null;
async function canvasTree() {
  if (!tree || tree.revision !== shown) tree = await getJson(`/${encodeURIComponent(LEDGER)}/_canvas?at=${encodeURIComponent(shown)}`);
  return tree;
}

function findNode(nodes, id) {
  for (const n of nodes) {
    if (n.id === id) return n;
    if (n.type === 'section') {
      const found = findNode(n.children, id);
      if (found) return found;
    }
  }
  return null;
}

function describeNode(n) {
  const words = n.type === 'section' ? n.title : n.type === 'link' ? n.label : n.type === 'list' ? n.items[0] : n.type === 'table' ? n.rows[0].join(' | ') : n.type === 'figure' ? (n.caption ?? n.kind) : n.text;
  const line = (words ?? '').split('\n')[0];
  return `${n.type} ${n.id}: ${line.length > 40 ? `${line.slice(0, 40)}…` : line}`;
}

function places(nodes, moving) {
  const out = [{ value: 'into:root', label: 'first at the top level' }];
  const walk = (list) => {
    for (const n of list) {
      if (n.id === moving) continue;
      out.push({ value: `after:${n.id}`, label: `after ${describeNode(n)}` });
      if (n.type === 'section') {
        out.push({ value: `into:${n.id}`, label: `first in section ${n.id}: ${n.title}` });
        walk(n.children);
      }
    }
  };
  walk(nodes);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The editor panel: one edit at a time, outside the projection, so updates never touch it.

function closeEditor() {
  if (!editing) return;
  const { panel, opener } = editing;
  editing = null;
  panel.remove();
  counterpart(opener)?.focus();
}

/**
 * The control the editor was opened from, or, when a live update redrew its node meanwhile, the
 * control of the same text in that node's redrawn controls: a keyboard user's focus comes back
 * to where it was, not to the page's start.
 */
function counterpart(opener) {
  if (!opener || opener.isConnected) return opener;
  const id = opener.closest('[id]')?.id;
  const controls = id ? document.getElementById(id)?.querySelector(':scope > .live-controls') : null;
  return [...(controls?.querySelectorAll('button') ?? [])].find((b) => b.textContent === opener.textContent) ?? null;
}

function outcomeView(o, retry) {
  const box = el('div', { class: `live-outcome ${o.outcome ?? 'error'}`, role: 'alert' });
  if (o.outcome === 'applied') {
    box.append(el('p', { text: `Applied: ${o.node ?? ''} at revision ${short(o.revision)}.` }));
    if (o.diff?.length > 0) box.append(el('p', { text: 'Also changed since the revision you edited:' }), diffList(o.diff));
  } else if (o.outcome === 'proposed') {
    box.append(el('p', { text: `Proposed: ${o.proposalId}. An editor or owner of this canvas decides it.` }));
  } else if (o.outcome === 'conflict') {
    box.append(
      el('p', { text: `Conflict: ${o.node ?? 'the canvas'} changed since revision ${short(o.expectedRevision)}; nothing was written. Its changes since then, with their reasons:` }),
      diffList(o.diff ?? []),
      el('button', { type: 'button', class: 'live-retry', text: 'Take the new version and decide again', onclick: retry }),
    );
  } else if (o.outcome === 'rejected') {
    box.append(el('p', { text: `Rejected (${o.code}): ${o.reason}` }), el('p', { class: 'live-hint', text: `Fix: ${o.hint}` }));
  } else {
    const e = o.error ?? { code: 'INTERNAL', message: 'no answer', hint: '' };
    box.append(el('p', { text: `Refused (${e.code}): ${e.message}` }), el('p', { class: 'live-hint', text: e.hint }));
  }
  return box;
}

/**
 * Open the editor for one verb.
 * @param spec - { op, id?, type?, title, opener }
 */
async function openEditor(spec) {
  closeEditor();
  const t = await canvasTree();
  const base = t.revision;
  const node = spec.id ? findNode(t.canvas.children, spec.id) : null;
  const type = spec.type ?? node?.type;
  const form = spec.op === 'insert' || spec.op === 'replace' ? nodeForm(type, spec.op === 'replace' ? node : null) : null;
  const where =
    spec.op === 'move' || (spec.op === 'insert' && spec.pick)
      ? el('select', {}, places(t.canvas.children, spec.id).map((p) => el('option', { value: p.value, text: p.label })))
      : null;
  const why = reasonField({ required: true, 'aria-describedby': 'live-why-problem' });
  const problem = el('p', { id: 'live-why-problem', class: 'live-problem', 'aria-live': 'polite' });
  const notice = el('p', { class: 'live-notice', 'aria-live': 'polite' });
  const result = el('div', { class: 'live-result' });
  const submit = el('button', { type: 'submit', class: 'live-submit', text: spec.op === 'remove' ? 'Remove' : spec.op === 'move' ? 'Move' : 'Save' });
  const formEl = el('form', { class: 'live-form', novalidate: true }, [
    el('p', { class: 'live-base', text: `Decided against revision ${short(base)}${session?.role === 'commenter' ? ' (as a commenter: this becomes a proposal)' : ''}.` }),
    ...(form ? form.fields : []),
    where ? field(spec.op === 'move' ? 'Move to' : 'Insert', where) : null,
    field('Why (one line, required)', why),
    problem,
    el('div', { class: 'live-actions' }, [submit, el('button', { type: 'button', text: 'Cancel', onclick: closeEditor })]),
  ]);
  const panel = el('aside', { id: 'live-editor', class: 'live-editor', role: 'dialog', 'aria-modal': 'false', 'aria-label': spec.title }, [
    el('h2', { text: spec.title }),
    notice,
    formEl,
    result,
  ]);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeEditor();
  });
  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    const bad = reasonProblem(why.value);
    problem.textContent = bad ?? '';
    if (bad) {
      why.setAttribute('aria-invalid', 'true');
      why.focus();
      return;
    }
    why.removeAttribute('aria-invalid');
    const body = { op: spec.op, base, why: why.value };
    if (spec.id) body.id = spec.id;
    if (form) body.node = form.value();
    const anchor = where ? where.value : spec.anchor;
    if (anchor) {
      const [k, v] = anchor.split(':');
      body[k] = v;
    }
    submit.disabled = true;
    const o = await postJson(`/${encodeURIComponent(LEDGER)}/_write`, body).catch((err) => ({ error: { code: 'NETWORK', message: String(err), hint: 'is canvas serve still running?' } }));
    submit.disabled = false;
    result.replaceChildren(
      outcomeView(o, async () => {
        await refresh();
        tree = null;
        await openEditor(spec);
      }),
    );
    if (o.outcome === 'applied' || o.outcome === 'proposed') {
      if (o.revision) own.add(o.revision);
      formEl.hidden = true;
      result.append(el('button', { type: 'button', class: 'live-close', text: 'Close', onclick: closeEditor }));
      result.querySelector('button')?.focus();
      await loadSession();
    } else {
      result.querySelector('button.live-retry')?.focus();
    }
  });
  editing = { panel, base, opener: spec.opener, notice };
  document.body.append(panel);
  (formEl.querySelector('textarea, input, select') ?? why).focus();
}

// ---------------------------------------------------------------------------------------------
// The controls on each node, and the proposals an editor may decide.

const TYPES = ['text', 'question', 'section', 'list', 'table', 'link', 'figure'];

function insertMenu(label, anchor, opener) {
  const pick = el('select', { 'aria-label': `Type of the node to insert ${label}` }, TYPES.map((t) => el('option', { value: t, text: t })));
  const go = el('button', {
    type: 'button',
    text: `Insert ${label}`,
    onclick: (e) => void openEditor({ op: 'insert', type: pick.value, anchor, title: `Insert a ${pick.value} ${label}`, opener: opener ?? e.currentTarget }),
  });
  return el('span', { class: 'live-insert' }, [pick, go]);
}

function controlsFor(n) {
  const id = n.id;
  const btn = (text, spec) => el('button', { type: 'button', text, onclick: (e) => void openEditor({ ...spec, id, opener: e.currentTarget }) });
  const bar = el('div', { class: 'live-controls', role: 'group', 'aria-label': `Edit ${id}` }, [
    btn('Edit', { op: 'replace', title: `Edit ${id}` }),
    btn('Move', { op: 'move', title: `Move ${id}` }),
    btn('Remove', { op: 'remove', title: `Remove ${id}` }),
    insertMenu(`after ${id}`, `after:${id}`),
  ]);
  if (n.classList.contains('section')) bar.append(insertMenu(`into ${id}`, `into:${id}`));
  return bar;
}

function addControls() {
  if (!ON_CANVAS || !session?.author || !session.role || session.role === 'viewer') return;
  document.querySelectorAll('main .node[id]').forEach((n) => {
    if (n.querySelector(':scope > .live-controls')) return;
    const heading = n.querySelector(':scope > h2, :scope > h3');
    const bar = controlsFor(n);
    if (heading) heading.after(bar);
    else n.append(bar);
  });
  const main = document.querySelector('main');
  if (main && !document.getElementById('live-top')) main.before(el('div', { id: 'live-top', class: 'live-controls' }, [insertMenu('at the top', 'into:root')]));
}

/**
 * The outcome of this page's last decision on a proposal: drawn above the list, not in the
 * decided proposal's item, which the next redraw removes (the proposal is no longer pending), so
 * the editor still reads what became of it, the list empty or not.
 */
let decided = null;

function proposalsView() {
  const box = document.getElementById('live-proposals') ?? el('section', { id: 'live-proposals', class: 'live-proposals', 'aria-label': 'Pending proposals' });
  const open = session?.proposals ?? [];
  if (open.length === 0 && !decided) {
    box.remove();
    return;
  }
  const parts = [
    el('h2', { text: `Pending proposals (${open.length})` }),
    decided,
    open.length === 0
      ? null
      : el(
          'ul',
          {},
          open.map((p) => {
            const why = reasonField({ 'aria-label': `Why decide proposal ${p.id}` });
            const out = el('div', { class: 'live-result' });
            const decide = (decision) => async () => {
              const bad = reasonProblem(why.value);
              if (bad) {
                out.replaceChildren(el('p', { class: 'live-problem', text: bad }));
                why.focus();
                return;
              }
              const o = await postJson(`/${encodeURIComponent(LEDGER)}/_decide`, { decision, proposal: p.id, why: why.value });
              if (o.revision) own.add(o.revision);
              decided = outcomeView(o, () => {});
              proposalsView();
              await loadSession();
            };
            return el('li', { class: 'live-proposal' }, [
              el('p', {}, [el('strong', { text: `${p.op} ${p.node ?? '(new node)'}` }), ` by ${p.proposedBy}: `, el('span', { class: 'reason', text: p.why })]),
              p.payload ? el('pre', { text: p.payload }) : null,
              field('Why', why),
              el('div', { class: 'live-actions' }, [
                el('button', { type: 'button', text: 'Approve', onclick: decide('approve') }),
                el('button', { type: 'button', text: 'Reject', onclick: decide('reject') }),
              ]),
              out,
            ]);
          }),
        ),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  if (!box.isConnected) document.querySelector('main')?.before(box);
}

async function loadSession() {
  if (!ON_CANVAS) return;
  session = await getJson(`/${encodeURIComponent(LEDGER)}/_session`);
  document.body.dataset.role = session.role ?? 'none';
  addControls();
  proposalsView();
}

setStatus('connecting', ON_CANVAS ? `Connecting: this page shows revision ${short(shown)}.` : 'Connecting…');
await loadSession().catch(() => {});
connect();
