// Written by scripts/templates.js from templates/ (npm run build runs it): edit the file in
// templates/, never this one. One piece: the texts of templates/, whole, as the renderers inline them.

/** The texts a page and the index inline, compiled in so a renderer reads no file (docs/projections.md, "The page"). */
export const TEMPLATES: { readonly pageCss: string; readonly indexCss: string; readonly indexScript: string } = {
  /** `templates/page.css`: every page's stylesheet, and the first part of the index's. */
  pageCss: `/* The canvas page: one standalone file. System fonts only; nothing is fetched.
   Light and dark follow the reader's setting; print drops the chrome. */
:root {
  color-scheme: light dark;
  --bg: #fdfdfc;
  --fg: #1d1f23;
  --muted: #5d636e;
  --rule: #d9dce1;
  --panel: #f3f4f6;
  --accent: #1f5fbf;
  --open: #a33a00;
  --open-bg: #fff3e8;
  --answered: #27613a;
  --answered-bg: #edf7ef;
  --frozen-bg: #eef2fb;
  --note: #6b4f00;
  --note-bg: #fbf6e3;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #16181c;
    --fg: #e4e6ea;
    --muted: #a0a6b0;
    --rule: #343842;
    --panel: #20232a;
    --accent: #7fb0ff;
    --open: #ffb380;
    --open-bg: #3a2616;
    --answered: #8fd6a4;
    --answered-bg: #17301f;
    --frozen-bg: #1c2536;
    --note: #f0d27a;
    --note-bg: #2e2812;
  }

  /* Drawings (and Mermaid's, once drawn) are in light colours: give them a light ground so lines
     and labels stay legible. The panel is a scroll box of its own, so it sits beside the node's
     floated id instead of under it. */
  .drawing,
  pre.mermaid[data-processed] {
    background: #fdfdfc;
    border-radius: 6px;
    padding: 0.5rem;
  }
}

*,
*::before,
*::after {
  box-sizing: border-box;
}

html {
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
}

body {
  margin: 0 auto;
  padding: 1rem clamp(0.75rem, 4vw, 2.5rem) 3rem;
  max-width: 48rem;
  background: var(--bg);
  color: var(--fg);
  font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  overflow-wrap: anywhere;
}

a {
  color: var(--accent);
}

code,
pre {
  font-family: var(--mono);
  font-size: 0.9em;
}

code {
  background: var(--panel);
  padding: 0 0.25em;
  border-radius: 3px;
}

pre {
  background: var(--panel);
  padding: 0.75rem;
  border-radius: 6px;
  overflow-x: auto;
  white-space: pre;
}

/* The skip link: off screen until it has the keyboard focus. */
.skip-link {
  position: absolute;
  left: 0.5rem;
  top: -3rem;
  padding: 0.4rem 0.75rem;
  background: var(--bg);
  border: 2px solid var(--accent);
  border-radius: 4px;
  z-index: 1;
}

.skip-link:focus {
  top: 0.5rem;
}

.site-nav {
  margin: 0 0 0.5rem;
  font-size: 0.9rem;
}

/* Header */
.masthead {
  border-bottom: 1px solid var(--rule);
  padding-bottom: 0.75rem;
  margin-bottom: 1rem;
}

.kicker {
  margin: 0;
  color: var(--muted);
  font-size: 0.85rem;
  letter-spacing: 0.08em;
  text-transform: uppercase;
}

h1 {
  margin: 0.1rem 0 0.5rem;
  font-size: clamp(1.4rem, 5vw, 2rem);
  line-height: 1.2;
}

.facts {
  margin: 0;
  font-size: 0.9rem;
}

.facts div {
  display: flex;
  flex-wrap: wrap;
  gap: 0 0.5rem;
}

.facts dt {
  color: var(--muted);
  min-width: 5.5rem;
}

.facts dd {
  margin: 0;
  flex: 1 1 16rem;
}

.revision {
  word-break: break-all;
}

.frozen,
.abandoned {
  margin: 0.75rem 0 0;
  padding: 0.5rem 0.75rem;
  background: var(--frozen-bg);
  border-left: 4px solid var(--accent);
  border-radius: 4px;
}

/* Question index */
.questions {
  margin: 0 0 1.5rem;
  padding: 0.75rem 1rem;
  background: var(--panel);
  border-radius: 6px;
}

.questions h2 {
  margin: 0;
  font-size: 1.1rem;
}

.questions .summary {
  margin: 0.25rem 0;
  color: var(--muted);
  font-size: 0.9rem;
}

.questions ol {
  margin: 0.25rem 0 0;
  padding-left: 1.5rem;
}

.questions li {
  margin: 0.2rem 0;
}

.questions .marker {
  font-size: 0.75rem;
  font-weight: 600;
  text-transform: uppercase;
  letter-spacing: 0.04em;
  padding: 0 0.35em;
  border-radius: 3px;
}

.questions li.open .marker {
  color: var(--open);
  background: var(--open-bg);
}

.questions li.answered .marker {
  color: var(--answered);
  background: var(--answered-bg);
}

/* Table of contents */
.contents {
  margin: 0 0 1.5rem;
  font-size: 0.95rem;
}

.contents h2 {
  margin: 0 0 0.25rem;
  padding: 0;
  border: 0;
  font-size: 1.1rem;
}

.contents ol {
  margin: 0;
  padding-left: 1.5rem;
}

.contents li {
  margin: 0.15rem 0;
}

/* Nodes */
h2,
h3 {
  line-height: 1.25;
}

h2 {
  font-size: 1.35rem;
  margin: 2rem 0 0.5rem;
  padding-bottom: 0.2rem;
  border-bottom: 1px solid var(--rule);
}

h3 {
  font-size: 1.1rem;
  margin: 1.5rem 0 0.4rem;
}

/* A section's extent is visible: a rule down its side from its heading to its last node, so a
   root-level node after it reads as outside it, not under its heading. */
.section {
  margin: 1.25rem 0 1.5rem;
  padding-left: 0.75rem;
  border-left: 3px solid var(--rule);
}

.section > h2 {
  margin-top: 0;
}

.section .section {
  margin-left: 0;
  padding-left: 0.75rem;
  border-left: 2px solid var(--rule);
}

.node {
  margin: 0.75rem 0;
}

.node > p,
.node li,
.node td,
.node th {
  white-space: pre-line;
}

.node > p {
  margin: 0;
}

/* The node's id: small and muted, but in the muted colour itself (no opacity), which meets WCAG AA
   contrast on every ground a node has, light and dark. A click on it opens the node's reasons
   (docs/projections.md, "Why is this here?") in a panel under it, over what follows. */
.nid,
.why {
  float: right;
  position: relative;
  margin-left: 0.5rem;
  color: var(--muted);
  font: 0.75rem/1.75 var(--mono);
}

.nid {
  text-decoration: none;
}

.why > summary {
  display: block;
  cursor: pointer;
  list-style: none;
}

.why > summary::-webkit-details-marker {
  display: none;
}

.nid:hover,
.nid:focus,
.why > summary:hover,
.why > summary:focus-visible,
.why[open] > summary {
  color: var(--accent);
  text-decoration: underline;
}

details.why > ol {
  position: absolute;
  z-index: 2;
  top: 100%;
  right: 0;
  width: max-content;
  max-width: min(36rem, calc(100vw - 2rem));
  margin: 0.15rem 0 0;
  padding: 0.5rem 0.75rem 0.5rem 2rem;
  background: var(--bg);
  border: 1px solid var(--rule);
  border-radius: 6px;
  box-shadow: 0 2px 8px rgb(0 0 0 / 18%);
  font: 0.85rem/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  white-space: normal;
}

.why > ol::before {
  content: "Why this is here, oldest first";
  display: block;
  margin-left: -1.25rem;
  font-weight: 600;
  color: var(--fg);
}

.why > ol > li {
  margin: 0.2rem 0;
  white-space: normal;
}

.why q {
  quotes: none;
  color: var(--fg);
}

.node ul,
.node ol {
  margin: 0;
  padding-left: 1.5rem;
}

.scroll {
  overflow-x: auto;
}

table {
  border-collapse: collapse;
  width: 100%;
  font-size: 0.95rem;
}

/* A cell's words break only between words (the page's "anywhere" would make "medium" into
   "mediu" and "m" on a phone): a table wider than the screen scrolls sideways in its box. */
th,
td {
  overflow-wrap: normal;
  border: 1px solid var(--rule);
  padding: 0.35rem 0.5rem;
  text-align: left;
  vertical-align: top;
}

th {
  background: var(--panel);
}

.question {
  padding: 0.5rem 0.75rem;
  border-radius: 4px;
  border-left: 4px solid;
}

.question.open {
  background: var(--open-bg);
  border-color: var(--open);
}

.question.answered {
  background: var(--answered-bg);
  border-color: var(--answered);
}

.question .marker {
  text-transform: uppercase;
  font-size: 0.8rem;
  letter-spacing: 0.04em;
}

.question.open .marker {
  color: var(--open);
}

.question.answered .marker {
  color: var(--answered);
}

.link.inert .href {
  word-break: break-all;
}

.inert-note {
  color: var(--muted);
  font-size: 0.85rem;
}

figure {
  margin: 1rem 0;
}

/* A drawing keeps its own size, so its labels stay readable on a phone: a wide one scrolls
   sideways inside its box rather than shrinking. */
.drawing {
  overflow-x: auto;
}

.drawing svg {
  display: block;
  max-width: none;
}

figcaption {
  color: var(--muted);
  font-size: 0.9rem;
  margin-top: 0.35rem;
}

.figure-kind {
  font-weight: 600;
}

.figure-error {
  color: var(--open);
}

.crossing {
  margin: 0.35rem 0 0;
  padding: 0.25rem 0.5rem;
  font-size: 0.85rem;
  color: var(--note);
  background: var(--note-bg);
  border-radius: 3px;
}

.crossing-label {
  font-weight: 600;
}

.empty {
  color: var(--muted);
  font-style: italic;
}

footer {
  margin-top: 3rem;
  padding-top: 0.75rem;
  border-top: 1px solid var(--rule);
  color: var(--muted);
  font-size: 0.85rem;
}

@media (max-width: 30rem) {
  body {
    font-size: 0.95rem;
  }

  .facts dt {
    min-width: 0;
  }
}

@media print {
  :root {
    --bg: #fff;
    --fg: #000;
    --muted: #444;
    --panel: #f2f2f2;
    --accent: #000;
  }

  body {
    max-width: none;
    padding: 0;
    font-size: 10.5pt;
  }

  .nid,
  .why,
  .skip-link,
  .site-nav {
    display: none;
  }

  a[href^="http"]::after,
  a[href^="mailto"]::after {
    content: " <" attr(href) ">";
    font-size: 0.85em;
    word-break: break-all;
  }

  pre,
  table,
  figure,
  .question {
    break-inside: avoid;
  }

  h2,
  h3 {
    break-after: avoid;
  }

  .scroll,
  pre {
    overflow: visible;
    white-space: pre-wrap;
  }
}
`,
  /** `templates/index.css`: the index's own stylesheet, after the page's. */
  indexCss: `/* The site index (canvas build): added after page.css on the index page only. A table on a wide
   screen; on a phone each canvas is a card, its cells labelled. */
body.site-index {
  max-width: 72rem;
}

/* Words break only where they must: "anywhere" would let the table squeeze a column down to one
   character, and break its headers mid-word. */
.canvases {
  overflow-wrap: break-word;
}

.canvases th {
  white-space: nowrap;
}

.canvases .ledger {
  width: 34%;
}

.canvases .ledger a {
  font-weight: 600;
}

.canvases .summary {
  margin: 0.2rem 0 0;
  font-size: 0.9rem;
}

.canvases .count,
.canvases .revision {
  white-space: nowrap;
}

.canvases .open {
  color: var(--open);
  font-weight: 600;
}

/* The ending cell carries its kind as a class (frozen, abandoned): not the page's frozen banner. */
.canvases td.ending {
  margin: 0;
  padding: 0.35rem 0.5rem;
  background: none;
  border: 1px solid var(--rule);
  border-radius: 0;
}

/* A row the search left out (a card's display would otherwise show it). */
.canvases tr[hidden] {
  display: none;
}

/* The desk (docs/site.md, "The desk"): what waits for a person, above the canvases. */
.desk {
  margin: 0 0 2rem;
  padding: 0.75rem 1rem 0.25rem;
  background: var(--open-bg);
  border-left: 4px solid var(--open);
  border-radius: 0 6px 6px 0;
}

.desk h2 {
  margin: 0 0 0.25rem;
}

.desk h3 {
  margin: 1rem 0 0.4rem;
  font-size: 1rem;
}

.desk-summary {
  margin: 0 0 0.5rem;
}

.desk-list {
  margin: 0 0 0.75rem;
  padding-left: 1.5rem;
}

.desk-list > li {
  margin: 0 0 0.75rem;
}

.desk-what,
.desk-meta {
  margin: 0;
  overflow-wrap: break-word;
}

.desk-meta {
  color: var(--muted);
  font-size: 0.9rem;
}

/* A proposal's change: its lines kept whole, the box scrolling sideways when they are long. */
.desk-diff {
  margin: 0.35rem 0;
  padding: 0.4rem 0.6rem;
  overflow-x: auto;
  background: var(--bg);
  border: 1px solid var(--rule);
  border-radius: 4px;
  font-family: var(--mono);
  font-size: 0.85rem;
}

.desk-diff del,
.desk-diff ins {
  text-decoration: none;
}

.desk-diff del {
  color: var(--open);
}

.desk-diff ins {
  color: var(--answered);
}

/* Search and sort: shown by the index's script only. */
.index-tools {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1.5rem;
  margin: 0 0 1rem;
}

.index-tools[hidden] {
  display: none;
}

.index-tools .tool {
  margin: 0;
}

.index-tools input,
.index-tools select {
  font: inherit;
  color: var(--fg);
  background: var(--bg);
  border: 1px solid var(--muted);
  border-radius: 4px;
  padding: 0.2rem 0.4rem;
}

.index-tools input {
  width: min(18rem, 60vw);
}

.index-count {
  margin: 0;
  color: var(--muted);
}

@media (max-width: 40rem) {
  .canvases,
  .canvases tbody,
  .canvases tr,
  .canvases td {
    display: block;
    width: auto;
  }

  /* The column headers become each cell's own label. */
  .canvases thead {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .canvases tr {
    margin: 0 0 0.75rem;
    padding: 0.6rem 0.75rem;
    border: 1px solid var(--rule);
    border-radius: 6px;
  }

  /* Each cell's label in a column of its own: the value's later lines hang beside it. */
  .canvases td,
  .canvases td.ending {
    border: 0;
    padding: 0.1rem 0 0.1rem 6.5rem;
    text-indent: -6.5rem;
  }

  .canvases td::before {
    content: attr(data-label);
    display: inline-block;
    width: 6.5rem;
    text-indent: 0;
    color: var(--muted);
    font-weight: 400;
  }

  .canvases .ledger {
    width: auto;
    padding: 0 0 0.35rem;
    text-indent: 0;
    font-size: 1.05rem;
  }

  .canvases .ledger::before {
    content: none;
  }
}
`,
  /** `templates/index.js`: the index's script: search and sorting of its rows. */
  indexScript: `// The site index's own script (docs/site.md, "The index"): a search box and a sort order for the
// list of canvases. The page works without it: the controls stay hidden and the list stays in
// ledger-id order. Admitted by the page's Content-Security-Policy by its hash; it fetches nothing.
// A served index that swaps its list for a newer one (docs/serve.md, "Live") sends
// \`canvas:index-swapped\` on the document, carrying the search and the order the reader had: the
// script takes the new list, and keeps them.
(() => {
  const startIndex = (kept) => {
    const tools = document.getElementById('index-tools');
    const search = document.getElementById('index-search');
    const sort = document.getElementById('index-sort');
    const count = document.getElementById('index-count');
    const body = document.querySelector('table.canvases tbody');
    if (!tools || !search || !sort || !count || !body) return;
    const rows = Array.from(body.querySelectorAll('tr[data-name]'));
    const text = new Map(rows.map((row) => [row, (row.textContent || '').replace(/\\s+/g, ' ').toLowerCase()]));
    const byName = (a, b) => (a.dataset.name < b.dataset.name ? -1 : a.dataset.name > b.dataset.name ? 1 : 0);
    const orders = {
      name: byName,
      // Newest first; a canvas never edited goes last.
      edited: (a, b) => (b.dataset.edited || '').localeCompare(a.dataset.edited || '') || byName(a, b),
      open: (a, b) => Number(b.dataset.open) - Number(a.dataset.open) || byName(a, b),
    };
    const update = () => {
      const words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
      let shown = 0;
      for (const row of rows) {
        const match = words.every((w) => text.get(row).includes(w));
        row.hidden = !match;
        if (match) shown += 1;
      }
      for (const row of [...rows].sort(orders[sort.value] || byName)) body.appendChild(row);
      count.textContent = words.length === 0 ? '' : shown === 0 ? 'No canvas matches.' : \`\${shown} of \${rows.length} shown.\`;
    };
    if (kept) {
      search.value = kept.search;
      sort.value = kept.sort;
    }
    search.addEventListener('input', update);
    sort.addEventListener('change', update);
    tools.hidden = false;
    update();
  };
  startIndex(null);
  document.addEventListener('canvas:index-swapped', (e) => startIndex(e.detail));
})();
`,
};
