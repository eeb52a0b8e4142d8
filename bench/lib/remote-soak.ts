// Many machines, one shared remote (docs/remote.md): machines (workspaces) with writer processes
// each, every writer a loop of `canvas` commands, half on one hot node of a shared canvas (stale
// bases on purpose, so conflicts happen), half inserting into the machine's own canvas. The report
// says what a reader of the remote can check afterwards: every applied edit is in the remote's
// history exactly once and every refused one not at all, every conflict names a node another
// machine changed after the writer's base, every machine verifies green after a sync, and the
// remote's canvas refs agree with its main. Used by bench/remote-soak.ts (4 x 2 x 50).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from './random.js';

/** What to run. */
export interface RemoteSoakOptions {
  /** The project's root (its `bin/canvas.js` is run). */
  root: string;
  /** Where the machines' workspaces go. */
  dir: string;
  /** The URL every machine sets as its remote. */
  url: string;
  /** The bare repository behind the URL, read for the checks. */
  bare: string;
  machines: number;
  writers: number;
  edits: number;
  seed?: number;
}

/** What happened, and what the checks found (`problems` empty when every check held). */
export interface RemoteSoakReport {
  applied: number;
  conflicts: number;
  /** Outcomes that were neither applied nor a conflict: each one a problem. */
  errors: string[];
  problems: string[];
  seconds: number;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function canvas(root: string, ws: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    // The soak checks what lands, not how long it waits: a machine's two writers and its reads queue
    // on its lock behind a write that is exchanging rounds with the remote, on a loaded machine for
    // longer than the default minute.
    const env: NodeJS.ProcessEnv = { CANVAS_LOCK_TIMEOUT_MS: '600000', ...process.env, CANVAS_WORKSPACE: ws, CANVAS_AUTHOR: 'soak | by-hand', NO_COLOR: '1' };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [join(root, 'bin', 'canvas.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function must(root: string, ws: string, args: string[]): Promise<Run> {
  const r = await canvas(root, ws, args);
  if (r.code !== 0) throw new Error(`canvas ${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  return r;
}

const git = (dir: string, args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

/** Run the soak and check what it left. */
export async function remoteSoak(o: RemoteSoakOptions): Promise<RemoteSoakReport> {
  const started = performance.now();
  const machines = Array.from({ length: o.machines }, (_, i) => mkdtempSync(join(o.dir, `machine-${i}-`)));
  for (const m of machines) await must(o.root, m, ['remote', 'set', o.url]);
  await must(o.root, machines[0]!, ['create', 'hot', '--why', 'the canvas every machine writes']);
  const base0 = JSON.parse((await must(o.root, machines[0]!, ['read', 'hot', '--json'])).stdout).revision as string;
  const hot = JSON.parse((await must(o.root, machines[0]!, ['insert', 'hot', '--into', 'root', '--text', 'the hot node', '--base', base0, '--why', 'the node everyone edits', '--json'])).stdout).node as string;
  for (const [i, m] of machines.entries()) await must(o.root, m, ['create', `own-${i}`, '--why', `machine ${i}'s own canvas`]);
  const applied: { why: string; revision: string }[] = [];
  const refused: { why: string; base: string; node: string; commits: string[] }[] = [];
  const errors: string[] = [];
  const writer = async (m: number, w: number) => {
    const r = rng((o.seed ?? 11) * 1000 + m * 10 + w);
    const ws = machines[m]!;
    let base = JSON.parse((await must(o.root, ws, ['read', 'hot', '--fetch', '--json'])).stdout).revision as string;
    for (let i = 0; i < o.edits; i++) {
      const why = `machine ${m} writer ${w} edit ${i}`;
      let args: string[];
      let node = hot;
      if (r() < 0.5) {
        // Half the time the base is the one read earlier, however stale: a conflict when another machine changed the node since.
        if (r() < 0.5) base = JSON.parse((await must(o.root, ws, ['read', 'hot', '--fetch', '--json'])).stdout).revision as string;
        args = ['replace', 'hot', hot, '--text', `${why}`, '--base', base, '--why', why, '--json'];
      } else {
        const own = JSON.parse((await must(o.root, ws, ['read', `own-${m}`, '--json'])).stdout).revision as string;
        node = '';
        args = ['insert', `own-${m}`, '--into', 'root', '--text', why, '--base', own, '--why', why, '--json'];
      }
      const out = await canvas(o.root, ws, args);
      let parsed: { outcome?: string; revision?: string; code?: string; node?: string; diff?: { node: string; commits: { commit: string }[] }[] } = {};
      try {
        parsed = JSON.parse(out.stdout);
      } catch {
        // not an outcome: reported below
      }
      if (out.code === 0 && parsed.outcome === 'applied') applied.push({ why, revision: parsed.revision! });
      else if (out.code === 3 && parsed.outcome === 'conflict') {
        refused.push({ why, base, node, commits: (parsed.diff ?? []).filter((d) => d.node === node).flatMap((d) => d.commits.map((c) => c.commit)) });
      } else errors.push(`${why}: exit ${out.code} ${out.stdout.trim()} ${out.stderr.trim()}`);
    }
  };
  await Promise.all(machines.flatMap((_, m) => Array.from({ length: o.writers }, (_, w) => writer(m, w))));
  const problems = await check(o, machines, applied, refused);
  return { applied: applied.length, conflicts: refused.length, errors, problems: [...errors, ...problems], seconds: (performance.now() - started) / 1000 };
}

async function check(o: RemoteSoakOptions, machines: string[], applied: { why: string; revision: string }[], refused: { why: string; base: string; node: string; commits: string[] }[]): Promise<string[]> {
  const problems: string[] = [];
  const subjects = new Map<string, number>();
  const log = git(o.bare, ['log', '--format=%H %s', 'refs/heads/main']).split('\n');
  for (const line of log) {
    const reason = line.slice(line.indexOf(': ') + 2);
    subjects.set(reason, (subjects.get(reason) ?? 0) + 1);
  }
  const history = new Set(log.map((l) => l.slice(0, 40)));
  for (const a of applied) {
    if (subjects.get(a.why) !== 1) problems.push(`applied "${a.why}" is in the remote's history ${subjects.get(a.why) ?? 0} times`);
    if (!history.has(a.revision)) problems.push(`applied "${a.why}" (${a.revision}) is not on the remote's main`);
  }
  for (const c of refused) {
    if (subjects.has(c.why)) problems.push(`refused "${c.why}" is in the remote's history`);
    if (c.commits.length === 0) problems.push(`conflict "${c.why}" names no commit on its node`);
    for (const sha of c.commits) {
      let ancestor = true;
      try {
        execFileSync('git', ['-C', o.bare, 'merge-base', '--is-ancestor', sha, c.base], { stdio: 'ignore' });
      } catch {
        ancestor = false;
      }
      if (ancestor) problems.push(`conflict "${c.why}" names ${sha}, which its base already held`);
    }
  }
  // The remote's canvas refs agree with its main: each is the newest commit naming its canvas.
  const latest = new Map<string, string>();
  for (const line of git(o.bare, ['log', '--format=%H %(trailers:key=Canvas-Ledger,valueonly,separator=)', 'refs/heads/main']).split('\n')) {
    const [sha, ledger] = line.split(' ');
    if (sha && ledger && !latest.has(ledger)) latest.set(ledger, sha);
  }
  for (const line of git(o.bare, ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']).split('\n').filter(Boolean)) {
    const [ledger, sha] = line.split(' ');
    if (latest.get(ledger!) !== sha) problems.push(`the remote's refs/canvas/${ledger} is ${sha}, its main's newest commit of it ${latest.get(ledger!)}`);
  }
  for (const m of machines) {
    await must(o.root, m, ['sync']);
    const v = await canvas(o.root, m, ['verify']);
    if (v.code !== 0) problems.push(`verify on ${m}: exit ${v.code}\n${v.stdout}${v.stderr}`);
    if (git(join(m, 'state', 'canvas'), ['rev-parse', 'refs/heads/main']) !== git(o.bare, ['rev-parse', 'refs/heads/main'])) problems.push(`${m}'s main is not the remote's after a sync`);
  }
  return problems;
}
