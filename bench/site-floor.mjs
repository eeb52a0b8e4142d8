// The site build's I/O floor (docs/performance.md, "The site build's floor"): what a build of
// every canvas must do whatever its renderers cost, as one process: one `git for-each-ref` for
// the canvases and their revisions, one `git cat-file --batch` for every blob and commit the build
// reads (each canvas's document and its ten most recent commits, requested in pipelined rounds:
// a commit names the one before it), and the same file writes (a folder per canvas made once,
// three files each plus the index and the manifest, the sizes the build wrote, each a fresh file
// renamed into place), with no parsing or rendering.
//
// node bench/site-floor.mjs PLAN.json OUT
//   PLAN.json: { "repo": DIR, "gitArgs": [...], "edits": 10, "sizes": { "<ledger>": [page, comment, prompt] }, "index": n, "manifest": n }
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [planPath, out] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, 'utf8'));

/** Run git to its end and return its stdout. */
function git(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...plan.gitArgs, ...args], { cwd: plan.repo, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`git ${args[0]} exited ${code}`))));
  });
}

/** A `git cat-file --batch`, each round of requests written at once and answered in order. */
function batch() {
  const child = spawn('git', [...plan.gitArgs, 'cat-file', '--batch'], { cwd: plan.repo, stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = Buffer.alloc(0);
  let waiting = null;
  const parse = () => {
    if (!waiting) return;
    while (waiting.got.length < waiting.want) {
      const nl = buffer.indexOf(10);
      if (nl < 0) return;
      const [, type, size] = buffer.subarray(0, nl).toString('latin1').split(' ');
      const end = nl + 1 + Number(size);
      if (buffer.length < end + 1) return;
      waiting.got.push({ type, content: buffer.subarray(nl + 1, end) });
      buffer = buffer.subarray(end + 1);
    }
    const done = waiting;
    waiting = null;
    done.resolve(done.got);
  };
  child.stdout.on('data', (c) => {
    buffer = buffer.length === 0 ? c : Buffer.concat([buffer, c]);
    parse();
  });
  return {
    read(revs) {
      return new Promise((resolve) => {
        waiting = { want: revs.length, got: [], resolve };
        child.stdin.write(`${revs.join('\n')}\n`);
        parse();
      });
    },
    /** End git's input; resolves once git has exited (so its CPU is this process's child's). */
    close: () => {
      child.stdin.end();
      return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('close', resolve)));
    },
  };
}

const refs = (await git(['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']))
  .split('\n')
  .filter(Boolean)
  .map((l) => l.split(' '));
const cat = batch();
const blobs = await cat.read(refs.map(([ledger, rev]) => `${rev}:${ledger}.xml`));
// The chains, newest first, one pipelined round per depth.
let heads = refs.map(([, rev]) => rev);
for (let depth = 0; depth < plan.edits && heads.some(Boolean); depth += 1) {
  const live = heads.filter(Boolean);
  const commits = await cat.read(live);
  const previous = commits.map((c) => /^Canvas-Previous: ([0-9a-f]{40})$/m.exec(c.content.toString('utf8'))?.[1] ?? null);
  let k = 0;
  heads = heads.map((h) => (h ? previous[k++] : null));
}
const catEnded = cat.close();

/** Bytes of a given length, made of the canvas's document (as a page holds its text). */
function bytesOf(source, length) {
  const b = Buffer.allocUnsafe(length);
  for (let at = 0; at < length; at += source.length) source.copy(b, at, 0, Math.min(source.length, length - at));
  return b;
}
let n = 0;
function write(path, content) {
  const tmp = join(dirname(path), `.floor.${process.pid}.${n++}.tmp`);
  writeFileSync(tmp, content, { flag: 'wx' });
  renameSync(tmp, path);
}
mkdirSync(out, { recursive: true });
refs.forEach(([ledger], i) => {
  const sizes = plan.sizes[ledger] ?? [0, 0, 0];
  const dir = join(out, ledger);
  mkdirSync(dir);
  const doc = blobs[i].content.length > 0 ? blobs[i].content : Buffer.from(' ');
  for (const [k, name] of ['index.html', 'comment.md', 'prompt.txt'].entries()) write(join(dir, name), bytesOf(doc, sizes[k]));
});
write(join(out, 'index.html'), Buffer.alloc(plan.index, 32));
write(join(out, '.canvas-build.json'), Buffer.alloc(plan.manifest, 32));
await catEnded;
process.stdout.write(`floor ${refs.length}\n`);
