// MCP resource subscriptions (docs/mcp.md, "Resources and subscriptions"): how long after a write
// a subscribed client hears `notifications/resources/updated`, under both protocol revisions: the
// v1 SDK's client subscribes with `resources/subscribe` (2025-11-25), the v2 SDK's client listens
// with `subscriptions/listen` (2026-07-28). Each spawns `canvas mcp` over stdio and follows
// canvas://<ledger>; each write is made by the CLI (a real `canvas insert` process, as a user's
// other agent would) or by the library in this process.
// Per write, three instants: the write's end (the process's exit, or the library call's return),
// the commit as the kernel tells a bare fs.watch in this process (the canvas's ref file renamed
// into place: the floor of being told), and the notification's arrival. The baseline of each pair is one
// `git for-each-ref` of the canvas refs (what the server must do at least once it is told).
// Then the cases a file watch could miss: a write after `git pack-refs --all`, and a write after
// the repository's `.git` was replaced by a copy of itself.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, type FSWatcher, mkdirSync, readFileSync, renameSync, rmSync, watch } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv } from '../lib/context.js';
import { type Stats, stats } from '../lib/measure.js';

const WHO = 'bench';
const AUTHOR = `${WHO} | by-hand`;
const LEDGER = 'followed';
const URI = `canvas://${LEDGER}`;
/** A write not heard of by then is lost, and fails the benchmark. */
const LOST_MS = 10_000;
/** The target: p95 from the commit to the notification (docs/mcp.md, "Resources and subscriptions"). */
const P95_MS = 300;
const run = promisify(execFile);

/** The nearest-rank quantile q (0..1): p95 of 20 is the 19th. */
function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
}

/** p50, p95 and max of milliseconds, for the table and the docs. */
function tail(values: readonly number[]): { p50: number; p95: number; max: number; n: number } {
  return { p50: quantile(values, 0.5), p95: quantile(values, 0.95), max: quantile(values, 1), n: values.length };
}

/**
 * The CPU milliseconds (user + sys) a live process has used, with the children it waited for
 * (its git processes), from /proc (10 ms ticks).
 */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).reduce((t, x) => t + Number(x), 0) * 10;
}

/** Let the file events of a change made while this process was blocked be delivered first. */
const settle = () => new Promise((r) => setTimeout(r, 200));

/** One write as heard: milliseconds from its end (negative: heard before it ended) and from its commit. */
interface Heard {
  fromEnd: number;
  fromCommit: number;
  /** The bare fs.watch's first event, from the write's end. */
  kernelFromEnd: number;
}

/** The subscribed client and the bare watch, and a way to time one write between them. */
class Listener {
  private notified: ((at: number) => void) | null = null;
  private event: number | null = null;
  private readonly watchers: FSWatcher[] = [];

  constructor(private readonly ws: Workspace) {
    this.watch();
  }

  /** A notification for the followed canvas arrived now. */
  heard(uri: string): void {
    if (uri === URI) this.notified?.(performance.now());
  }

  /**
   * The bare fs.watch of the two places the canvas's ref can move: its loose file (the rename of
   * its `.lock` into place) and `packed-refs`; the first such event is the commit as the kernel
   * tells it.
   */
  watch(): void {
    for (const w of this.watchers.splice(0)) w.close();
    const git = join(this.ws.repo, '.git');
    for (const [dir, name] of [
      [git, 'packed-refs'],
      [join(git, 'refs', 'canvas'), LEDGER],
    ] as const) {
      this.watchers.push(
        watch(dir, (_event, file) => {
          if (file === name) this.event ??= performance.now();
        }),
      );
    }
  }

  /** Run one write and time it: its end, the kernel's first event, the notification. */
  async time(write: () => Promise<void>): Promise<Heard> {
    this.event = null;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<number>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no notifications/resources/updated within ${LOST_MS} ms of a write`)), LOST_MS);
      this.notified = (at) => {
        clearTimeout(timer);
        this.notified = null;
        resolve(at);
      };
    });
    try {
      await write();
    } catch (e) {
      clearTimeout(timer);
      this.notified = null;
      throw e;
    }
    const end = performance.now();
    const at = await heard;
    const commit = this.event ?? end;
    return { fromEnd: at - end, fromCommit: at - commit, kernelFromEnd: commit - end };
  }

  close(): void {
    for (const w of this.watchers.splice(0)) w.close();
  }
}

/** A workspace with one canvas owned by the client's identity, and its revision. */
async function workspace(ctx: BenchContext): Promise<{ ws: Workspace; revision: string }> {
  const dir = join(ctx.scratch, 'notify-ws');
  mkdirSync(dir, { recursive: true });
  const ws = resolveWorkspace({ workspace: dir });
  const o = await openCanvas(ws, { ledger: LEDGER, problem: 'A change goes unheard.', expectedValue: 'Subscribers hear it.', why: 'bench', author: AUTHOR });
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return { ws, revision: o.revision };
}

/** `canvas insert` as a separate process, ended when it exits; returns the new revision. */
function cliInsert(ctx: BenchContext, ws: Workspace, base: string, i: number): Promise<string> {
  const [node, pre] = cliCommand(ctx);
  return new Promise((resolve, reject) => {
    const child = spawn(node, [...pre, 'insert', LEDGER, '--into', 'root', '--text', `CLI write ${i}`, '--base', base, '--why', 'bench', '--json'], {
      env: cliEnv(ws, AUTHOR),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`canvas insert exited ${code}: ${err.slice(0, 2000)}`));
      resolve((JSON.parse(out) as { revision: string }).revision);
    });
  });
}

/** The baseline of a pair: one `git for-each-ref` of the canvas refs, wall milliseconds. */
async function forEachRef(ws: Workspace): Promise<number> {
  const t = performance.now();
  await run('git', [...baselineGitArgs(ws.repo), 'for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/'], { cwd: ws.repo, env: baselineGitEnv() });
  return performance.now() - t;
}

/** A series of writes, each heard before the next; the figures of the series. */
async function series(listener: Listener, ws: Workspace, n: number, write: (i: number) => Promise<void>): Promise<{ heard: Heard[]; baseline: number[] }> {
  const heard: Heard[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < n; i++) {
    heard.push(await listener.time(() => write(i)));
    baseline.push(await forEachRef(ws));
    // Let the server's read of this burst end, so the next write is a burst of its own.
    await new Promise((r) => setTimeout(r, 30));
  }
  return { heard, baseline };
}

const f0 = (x: number) => x.toFixed(0);

function result(name: string, measured: string, s: { heard: Heard[]; baseline: number[] }, detail: Record<string, unknown>): BenchResult {
  const fromEnd = tail(s.heard.map((h) => h.fromEnd));
  const fromCommit = tail(s.heard.map((h) => h.fromCommit));
  const a: Stats = stats(s.heard.map((h) => h.fromCommit));
  const b: Stats = stats(s.baseline);
  return {
    name,
    measured,
    baseline: 'git for-each-ref refs/canvas/ (after each write)',
    target: `p95 <= ${P95_MS} ms from the commit`,
    ratio: stats(s.heard.map((h, i) => h.fromCommit / s.baseline[i]!)),
    a,
    b,
    pass: fromCommit.p95 <= P95_MS,
    figure: `from the write's end p50 ${f0(fromEnd.p50)}, p95 ${f0(fromEnd.p95)}, max ${f0(fromEnd.max)} ms; from the commit p50 ${f0(fromCommit.p50)}, p95 ${f0(fromCommit.p95)}, max ${f0(fromCommit.max)} ms (${fromEnd.n} writes)`,
    detail: { fromEnd, fromCommit, kernelFromEnd: tail(s.heard.map((h) => h.kernelFromEnd)), ...detail },
  };
}

/** A client following canvas://<ledger> as its revision does; its server's pid, and a way to close it. */
interface Follower {
  pid: number;
  close: () => Promise<void>;
}

/** Connect one official client to `canvas mcp` and follow the canvas; each notification goes to the listener. */
async function follow(ctx: BenchContext, ws: Workspace, sdk: 'v1' | 'v2', listener: Listener): Promise<Follower> {
  const [node, pre] = cliCommand(ctx);
  const params = { command: node, args: [...pre, 'mcp', '--as', WHO, '--workspace', ws.root], env: cliEnv(ws, AUTHOR) as Record<string, string>, stderr: 'pipe' as const };
  if (sdk === 'v1') {
    const transport = new StdioClientTransport(params);
    const client = new Client({ name: 'canvas-bench', version: '0.0.0' });
    await client.connect(transport);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => listener.heard(n.params.uri));
    await client.subscribeResource({ uri: URI });
    return { pid: transport.pid!, close: () => client.close() };
  }
  const transport = new V2StdioClientTransport(params);
  const client = new V2Client({ name: 'canvas-bench', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  client.setNotificationHandler('notifications/resources/updated', (n) => listener.heard(n.params.uri));
  await client.listen({ resourceSubscriptions: [URI] });
  return { pid: transport.pid!, close: () => client.close() };
}

/** Subscription latency for CLI and library writes under both revisions, and the cases a file watch could miss. */
export async function notifyBench(ctx: BenchContext): Promise<BenchResult[]> {
  const { ws, revision } = await workspace(ctx);
  const listener = new Listener(ws);
  const n = ctx.quick ? 4 : 60;
  let base = revision;
  const cliWrite = (i: number) => async () => {
    base = await cliInsert(ctx, ws, base, i);
  };
  const cpuPerWrite = (from: number, to: number) => Number(((to - from) / n).toFixed(2));
  const results: BenchResult[] = [];
  try {
    // 2026-07-28: subscriptions/listen through the v2 client, CLI writes.
    const modern = await follow(ctx, ws, 'v2', listener);
    try {
      const cpu0 = cpuOf(modern.pid);
      const cli = await series(listener, ws, n, (i) => cliWrite(i)());
      results.push(
        result('subscription: CLI writes, 2026-07-28 (subscriptions/listen)', 'canvas insert (a process) to notifications/resources/updated on a listen of the v2 SDK client', cli, {
          serverCpuMsPerWrite: cpuPerWrite(cpu0, cpuOf(modern.pid)),
        }),
      );
    } finally {
      await modern.close();
    }
    // 2025-11-25: resources/subscribe through the v1 client, CLI and library writes.
    const legacy = await follow(ctx, ws, 'v1', listener);
    try {
      const pid = legacy.pid;
      const cpu0 = cpuOf(pid);
      const cli = await series(listener, ws, n, (i) => cliWrite(n + i)());
      const cpu1 = cpuOf(pid);
      const lib = await series(listener, ws, n, async (i) => {
        const r = await insertNode(ws, { ledger: LEDGER, into: 'root', payload: { text: `library write ${i}` }, base, why: 'bench', author: AUTHOR });
        if (r.outcome !== 'applied') throw new Error(JSON.stringify(r));
        base = r.revision;
      });
      const cpu2 = cpuOf(pid);
      // What a file watch could miss: loose refs packed away, and the repository's folders replaced.
      execFileSync('git', ['-C', ws.repo, 'pack-refs', '--all']);
      await settle();
      const packed = await listener.time(cliWrite(2 * n));
      const git = join(ws.repo, '.git');
      cpSync(git, `${git}.copy`, { recursive: true });
      rmSync(git, { recursive: true });
      renameSync(`${git}.copy`, git);
      listener.watch();
      await settle();
      const replaced = await listener.time(cliWrite(2 * n + 1));
      results.push(
        result('subscription: CLI writes, 2025-11-25 (resources/subscribe)', 'canvas insert (a process) to notifications/resources/updated at a subscribed v1 SDK client', cli, {
          serverCpuMsPerWrite: cpuPerWrite(cpu0, cpu1),
        }),
        result('subscription: library writes, 2025-11-25', 'insertNode (in process) to notifications/resources/updated at a subscribed v1 SDK client', lib, {
          serverCpuMsPerWrite: cpuPerWrite(cpu1, cpu2),
        }),
        {
          name: 'subscription: refs packed, .git replaced',
          measured: 'a CLI write after git pack-refs --all, and one after .git was replaced by a copy of itself',
          baseline: '-',
          target: "each <= 1000 ms from the write's end (the fallback read is every 5 s)",
          pass: packed.fromEnd <= 1000 && replaced.fromEnd <= 1000,
          figure: `after pack-refs ${f0(packed.fromEnd)} ms, after .git replaced ${f0(replaced.fromEnd)} ms from the write's end`,
          detail: { packed, replaced },
        },
      );
    } finally {
      await legacy.close();
    }
    return results;
  } finally {
    listener.close();
  }
}
