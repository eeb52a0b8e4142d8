// A writer process of the concurrent-writers benchmark: says "ready", waits for "go" on stdin,
// then makes COUNT applied edits on one canvas through the built library, reading the canvas
// before each and reading again after a conflict. Prints one JSON line per outcome, then a
// summary line with its start and end times.
import { createInterface } from 'node:readline';
import { insertNode, readCanvas, replaceNode, resolveWorkspace } from '../dist/lib/index.js';

const [workspace, ledger, author, countText] = process.argv.slice(2);
const ws = resolveWorkspace({ workspace });
const count = Number(countText);

process.stdout.write('ready\n');
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));

const start = Date.now();
let applied = 0;
let conflicts = 0;
for (let i = 0; applied < count; i += 1) {
  const r = await readCanvas(ws, { ledger });
  const texts = [];
  for (const n of r.canvas.children) if (n.type === 'text') texts.push(n.id);
  const common = { ledger, base: r.revision, why: `writer edit ${i}`, author };
  // Mostly replaces of the first three text nodes (the writers of one canvas race for them).
  const o =
    i % 10 === 9
      ? await insertNode(ws, { ...common, into: 'root', payload: { text: `${author} inserted ${i}` } })
      : await replaceNode(ws, { ...common, node: texts[i % Math.min(3, texts.length)], payload: { text: `${author} wrote ${i}` } });
  if (o.outcome === 'applied') applied += 1;
  else if (o.outcome === 'conflict') conflicts += 1;
  process.stdout.write(`${JSON.stringify({ outcome: o.outcome, revision: o.revision ?? null, code: o.code ?? null })}\n`);
  if (o.outcome !== 'applied' && o.outcome !== 'conflict') process.exit(1);
}
process.stdout.write(`${JSON.stringify({ done: true, start, end: Date.now(), applied, conflicts })}\n`);
