// The CLI read's floor (docs/performance.md, "The CLI's floor"): what any Node process pays to
// read a canvas through the git binary, the way `canvas read` reads it: Node's start, one spawned
// `git cat-file --batch`, the canvas's ref asked for, then its document at that commit, and the
// revision and the bytes printed. No parsing, no checks, no argument handling.
//
// node bench/read-floor.mjs REPO LEDGER GIT_ARGS_JSON
import { spawn } from 'node:child_process';

const [repo, ledger, gitArgs] = process.argv.slice(2);
const git = spawn('git', [...JSON.parse(gitArgs), 'cat-file', '--batch'], { cwd: repo, stdio: ['pipe', 'pipe', 'inherit'] });
let buffer = Buffer.alloc(0);
let waiting = null;
git.stdout.on('data', (c) => {
  buffer = buffer.length === 0 ? c : Buffer.concat([buffer, c]);
  const nl = buffer.indexOf(10);
  if (nl < 0 || !waiting) return;
  const [sha, , size] = buffer.subarray(0, nl).toString('latin1').split(' ');
  if (buffer.length < nl + 1 + Number(size) + 1) return;
  const answer = { sha, content: buffer.subarray(nl + 1, nl + 1 + Number(size)) };
  buffer = buffer.subarray(nl + 2 + Number(size));
  const w = waiting;
  waiting = null;
  w(answer);
});
const ask = (what) =>
  new Promise((resolve) => {
    waiting = resolve;
    git.stdin.write(`${what}\n`);
  });
const commit = await ask(`refs/canvas/${ledger}`);
const doc = await ask(`${commit.sha}:${ledger}.xml`);
git.stdin.end();
process.stdout.write(`Canvas-Base: ${commit.sha}\n`);
process.stdout.write(doc.content);
