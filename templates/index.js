// The site index's own script (docs/site.md, "The index"): a search box and a sort order for the
// list of canvases. The page works without it: the controls stay hidden and the list stays in
// ledger-id order. Admitted by the page's Content-Security-Policy by its hash; it fetches nothing.
// A served index that swaps its list for a newer one (docs/serve.md, "Live") sends
// `canvas:index-swapped` on the document, carrying the search and the order the reader had: the
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
    const text = new Map(rows.map((row) => [row, (row.textContent || '').replace(/\s+/g, ' ').toLowerCase()]));
    const byName = (a, b) => (a.dataset.name < b.dataset.name ? -1 : a.dataset.name > b.dataset.name ? 1 : 0);
    const orders = {
      name: byName,
      // Newest first; a canvas never edited goes last.
      edited: (a, b) => (b.dataset.edited || '').localeCompare(a.dataset.edited || '') || byName(a, b),
      open: (a, b) => Number(b.dataset.open) - Number(a.dataset.open) || byName(a, b),
    };
    const update = () => {
      const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      let shown = 0;
      for (const row of rows) {
        const match = words.every((w) => text.get(row).includes(w));
        row.hidden = !match;
        if (match) shown += 1;
      }
      for (const row of [...rows].sort(orders[sort.value] || byName)) body.appendChild(row);
      count.textContent = words.length === 0 ? '' : shown === 0 ? 'No canvas matches.' : `${shown} of ${rows.length} shown.`;
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
