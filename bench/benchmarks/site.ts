// The site build (docs/performance.md, "The site build's floor"): `canvas build --out DIR` of
// 1,000 canvases of 30-80 nodes, cold, against its I/O floor (bench/site-floor.mjs: the same git
// reads and file writes, no rendering), and with one worker against the pool; then a build where
// nothing changed and one after a single edit, each against `node -e 0`; (full runs, its own
// key) 10,000 canvases against 1,000 of the same shape, with the peak memory; and (its own key)
// the cold build against Eleventy building the same canvases' comments.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv, copyWorkspace, pairs } from '../lib/context.js';
import { editText } from '../lib/edit-loop.js';
import { gitCpuLog } from '../lib/git-cpu.js';
import { GEN_AUTHOR, generateWorkspace, type WorkspaceSpec } from '../lib/generate-workspace.js';
import { bothCoresVerdict } from '../lib/both-cores-verdict.js';
import { interleave, type Sample, type Stats, stats, type Timed, timeProcess } from '../lib/measure.js';
import { historyWorkspace, siteWorkspaces } from '../lib/workspaces.js';

const TIME = '/usr/bin/time';
const PAGES = ['index.html', 'comment.md', 'prompt.txt'];

/**
 * One timed `canvas build`, with the process's peak memory (KiB) when GNU time is there; its CPU
 * includes its git processes' (its batch ends after it, uncounted by `time`: bench/lib/git-cpu.ts).
 */
function build(ctx: BenchContext, env: NodeJS.ProcessEnv, out: string, flags: string[] = []): Timed & { maxKiB: number | null } {
  const [node, pre] = cliCommand(ctx);
  const argv = [...pre, 'build', '--out', out, ...flags];
  if (!existsSync(TIME)) return { ...timeProcess(node, argv, { env }), maxKiB: null };
  const git = gitCpuLog(join(ctx.scratch, 'site-git'), env)!;
  const r = timeProcess(TIME, ['-f', '%M', node, ...argv], { env: git.env });
  const kib = Number(r.stderr.trim().split('\n').pop());
  return { ...r, cpuMs: r.cpuMs + git.read().cpuMs, maxKiB: Number.isFinite(kib) ? kib : null };
}

function expectBuilt(r: Timed, built: number, unchanged: number, what: string): void {
  if (!r.stdout.startsWith(`built ${built}, unchanged ${unchanged}, failed 0`)) throw new Error(`canvas build (${what}) printed:\n${r.stdout}${r.stderr}`);
}

/** The floor's plan: the repository, and the size of each file the build wrote. */
function floorPlan(ws: Workspace, site: string, path: string): void {
  const sizes: Record<string, number[]> = {};
  for (const ledger of readdirSync(site)) {
    if (ledger.startsWith('.') || ledger === 'index.html') continue;
    sizes[ledger] = PAGES.map((f) => statSync(join(site, ledger, f)).size);
  }
  const plan = {
    repo: ws.repo,
    gitArgs: baselineGitArgs(ws.repo),
    edits: 10,
    sizes,
    index: statSync(join(site, 'index.html')).size,
    manifest: statSync(join(site, '.canvas-build.json')).size,
  };
  writeFileSync(path, JSON.stringify(plan));
}

function floor(ctx: BenchContext, plan: string, out: string): Timed {
  rmSync(out, { recursive: true, force: true });
  return timeProcess(process.execPath, [join(ctx.root, 'bench', 'site-floor.mjs'), plan, out], { env: baselineGitEnv() });
}

const ms = (s: Stats) => `${(s.median / 1000).toFixed(2)} s`;
const ratioOf = (a: Sample[], b: Sample[], key: keyof Sample) => stats(a.map((x, i) => x[key] / b[i]![key]));

/** Cold (against the floor and one worker), no change and one change (against `node -e 0`). */
export async function siteBuild(ctx: BenchContext): Promise<BenchResult[]> {
  const spec = historyWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const ws = copyWorkspace(ctx, gen.ws, 'site-ws');
  const env = cliEnv(ws, GEN_AUTHOR);
  const canvases = gen.ledgers.length;
  const out = join(ctx.scratch, 'site');
  const floorOut = join(ctx.scratch, 'site-floor');
  const plan = join(ctx.scratch, 'site-floor.json');
  // A first build (not measured) tells the floor the sizes of the files it writes.
  rmSync(out, { recursive: true, force: true });
  expectBuilt(build(ctx, env, out), canvases, 0, 'cold');
  floorPlan(ws, out, plan);
  const pool: Sample[] = [];
  const one: Sample[] = [];
  const floors: Sample[] = [];
  let peak = 0;
  let measuredMemory = true;
  for (let i = 0; i < (ctx.quick ? 1 : 3); i += 1) {
    // Each round: the floor, the pool and one worker, in an order that turns every round.
    const steps = [
      () => floors.push(floor(ctx, plan, floorOut)),
      () => {
        rmSync(out, { recursive: true, force: true });
        const r = build(ctx, env, out);
        expectBuilt(r, canvases, 0, 'cold');
        pool.push(r);
        if (r.maxKiB === null) measuredMemory = false;
        else peak = Math.max(peak, r.maxKiB);
      },
      () => {
        rmSync(out, { recursive: true, force: true });
        const r = build(ctx, env, out, ['--workers', '1']);
        expectBuilt(r, canvases, 0, 'cold, one worker');
        one.push(r);
      },
    ];
    for (let k = 0; k < steps.length; k += 1) steps[(k + i) % steps.length]!();
  }
  const cold = { a: stats(pool.map((x) => x.ms)), b: stats(floors.map((x) => x.ms)), ratio: ratioOf(pool, floors, 'ms') };
  const coldCpu = { a: stats(pool.map((x) => x.cpuMs)), b: stats(floors.map((x) => x.cpuMs)), ratio: ratioOf(pool, floors, 'cpuMs') };
  const speedup = ratioOf(one, pool, 'ms');
  const cpus = availableParallelism();
  const peakMiB = peak / 1024;
  const nodeE0 = () => timeProcess(process.execPath, ['-e', '0']);
  // Nothing changed: the manifest decides.
  const still = await interleave(
    ...pairs(ctx, 10, 2),
    () => {
      const r = build(ctx, env, out);
      expectBuilt(r, 0, canvases, 'nothing changed');
      return r;
    },
    nodeE0,
  );
  const verified = build(ctx, env, out, ['--verify-output']);
  expectBuilt(verified, 0, canvases, '--verify-output');
  // One change: edit a canvas (not timed), build again into the same directory.
  const ledger = gen.ledgers[0]!;
  const read = await readCanvas(ws, { ledger });
  const blocks = read.canvas.children.filter((n) => n.type !== 'section').map((n) => n.id);
  let revision = read.revision;
  const changed = await interleave(
    ...pairs(ctx, 6, 1),
    async (i) => {
      const o = await replaceNode(ws, { ledger, node: blocks[i % blocks.length]!, base: revision, payload: { text: editText(i) }, why: 'one change for the site', author: GEN_AUTHOR });
      if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
      revision = o.revision;
      const r = build(ctx, env, out);
      expectBuilt(r, 1, canvases - 1, 'one change');
      return r;
    },
    nodeE0,
    false,
  );
  const shape = `${canvases} canvases of ${spec.minNodes}-${spec.maxNodes} nodes (${spec.commits} commits)`;
  return [
    {
      name: 'site build, cold',
      measured: `canvas build of ${shape}, ${pool.length} runs`,
      baseline: 'its I/O floor (bench/site-floor.mjs: for-each-ref, one cat-file --batch, the same writes)',
      // The floor is reported, not a target: the target is the build beside Eleventy (siteVsEleventy).
      target: 'none: the floor is reported',
      ...cold,
      cpu: coldCpu,
      pass: null,
      figure: `${ms(cold.a)} (${(cold.a.median / canvases).toFixed(1)} ms per canvas), peak ${measuredMemory ? `${peakMiB.toFixed(0)} MiB` : 'not measured (no /usr/bin/time)'}; one worker ${ms(stats(one.map((x) => x.ms)))}: x${speedup.median.toFixed(2)} (${speedup.p25.toFixed(2)}-${speedup.p75.toFixed(2)})`,
      detail: {
        canvases,
        perCanvasMs: cold.a.median / canvases,
        peakMiB: measuredMemory ? peakMiB : null,
        oneWorker: { wall: stats(one.map((x) => x.ms)), cpu: stats(one.map((x) => x.cpuMs)), speedup, cpuRatio: ratioOf(one, pool, 'cpuMs') },
      },
    },
    {
      name: 'site build, both cores',
      measured: `the cold build with --workers 1, ${pool.length} runs, alternating with the default build`,
      baseline: `the default build: one worker per core (${cpus} here)`,
      // A quick run's 20 canvases measure the pool's start-up more than two cores in use: it prints
      // the ratio with no verdict, and a full run judges it (bench/lib/both-cores-verdict.ts).
      ...bothCoresVerdict(ctx.quick, cpus, speedup.median),
      a: stats(one.map((x) => x.ms)),
      b: cold.a,
      ratio: speedup,
      cpu: { a: stats(one.map((x) => x.cpuMs)), b: coldCpu.a, ratio: ratioOf(one, pool, 'cpuMs') },
      figure: `speed-up x${speedup.median.toFixed(2)} (the ratio column: one worker's wall over the pool's)${ctx.quick ? `; at ${canvases} canvases mostly the pool's start-up` : ''}`,
    },
    {
      name: 'site build, nothing changed',
      measured: `canvas build again, ${shape}, none rebuilt`,
      baseline: 'node -e 0',
      target: 'CPU ratio <= 3',
      ...still,
      pass: still.cpu!.ratio.median <= 3,
      figure: `--verify-output: ${verified.ms.toFixed(0)} ms wall, ${verified.cpuMs.toFixed(0)} ms CPU`,
      detail: { verifyOutput: { ms: verified.ms, cpuMs: verified.cpuMs } },
    },
    {
      name: 'site build, one change',
      measured: `canvas build after one edit, ${shape}, 1 rebuilt`,
      baseline: 'node -e 0',
      target: 'CPU ratio <= 4',
      ...changed,
      pass: changed.cpu!.ratio.median <= 4,
      figure: 'ratio',
    },
  ];
}

/** One cold build of a generated workspace (one run after an unmeasured one), with its peak memory. */
async function coldOf(ctx: BenchContext, spec: WorkspaceSpec, name: string): Promise<{ canvases: number; run: Timed & { maxKiB: number | null }; seconds: number }> {
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const env = cliEnv(gen.ws, GEN_AUTHOR);
  const out = join(ctx.scratch, name);
  const canvases = gen.ledgers.length;
  let run: (Timed & { maxKiB: number | null }) | null = null;
  for (let i = 0; i < 2; i += 1) {
    rmSync(out, { recursive: true, force: true });
    run = build(ctx, env, out);
    expectBuilt(run, canvases, 0, name);
  }
  rmSync(out, { recursive: true, force: true });
  return { canvases, run: run!, seconds: gen.seconds };
}

/** 10,000 canvases against 1,000 of the same shape: no worse than linear, and the peak memory. */
export async function siteScale(ctx: BenchContext): Promise<BenchResult> {
  const [small, large] = siteWorkspaces(ctx.quick);
  const a = await coldOf(ctx, small!, 'site-small');
  const b = await coldOf(ctx, large!, 'site-large');
  const factor = b.canvases / a.canvases;
  const wall = b.run.ms / a.run.ms;
  const cpu = b.run.cpuMs / a.run.cpuMs;
  const peakMiB = b.run.maxKiB === null ? null : b.run.maxKiB / 1024;
  return {
    name: `site build, ${b.canvases} canvases`,
    measured: `cold canvas build of ${b.canvases} canvases of ${large!.minNodes}-${large!.maxNodes} nodes (${large!.commits} commits)`,
    baseline: `the same build of ${a.canvases} canvases of that shape`,
    target: `wall ratio <= ${(factor * 1.1).toFixed(1)}, peak <= 512 MiB`,
    a: stats([b.run.ms]),
    b: stats([a.run.ms]),
    ratio: stats([wall]),
    cpu: { a: stats([b.run.cpuMs]), b: stats([a.run.cpuMs]), ratio: stats([cpu]) },
    pass: wall <= factor * 1.1 && (peakMiB === null || peakMiB <= 512),
    figure: `peak ${peakMiB === null ? 'not measured' : `${peakMiB.toFixed(0)} MiB`} (${a.canvases}: ${a.run.maxKiB === null ? '-' : (a.run.maxKiB / 1024).toFixed(0)} MiB); generated in ${b.seconds.toFixed(0)} s`,
    detail: { peakMiB, smallPeakMiB: a.run.maxKiB === null ? null : a.run.maxKiB / 1024, generatedSeconds: { small: a.seconds, large: b.seconds } },
  };
}

/**
 * Eleventy's package folder, found as Node finds the package (its `cmd.cjs` is the `eleventy`
 * command), or null when it is not installed.
 */
function eleventyHome(): string | null {
  try {
    // The package exports no package.json; its CommonJS entry is src/EleventyCommonJs.cjs.
    return dirname(dirname(createRequire(import.meta.url).resolve('@11ty/eleventy')));
  } catch {
    return null;
  }
}

/**
 * The site build against the static-site generator a team would otherwise run (docs/performance.md,
 * "The site build beside Eleventy"): a cold `canvas build` of the 1,000 canvases of 30-80 nodes
 * against a cold Eleventy build, with its defaults, of a folder holding those canvases' comment
 * Markdown (`<ledger>.md`, as the build wrote them), alternating, both whole processes (the
 * build's git processes counted in its CPU; Eleventy's output folder removed before each run).
 */
export async function siteVsEleventy(ctx: BenchContext): Promise<BenchResult> {
  const spec = historyWorkspace(ctx.quick);
  const name = 'site build beside Eleventy';
  const home = eleventyHome();
  const base = { name, measured: '', baseline: '', target: 'wall ratio <= 1.0' };
  if (home === null) return { ...base, pass: null, skipped: true, figure: 'skipped: @11ty/eleventy is not installed (npm ci installs it)' };
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const ws = copyWorkspace(ctx, gen.ws, 'eleventy-ws');
  const env = cliEnv(ws, GEN_AUTHOR);
  const canvases = gen.ledgers.length;
  const out = join(ctx.scratch, 'eleventy-site');
  // A first build (not measured) writes the comments Eleventy is given, and the caches a build leaves.
  rmSync(out, { recursive: true, force: true });
  expectBuilt(build(ctx, env, out), canvases, 0, 'cold');
  const project = join(ctx.scratch, 'eleventy');
  const input = join(project, 'src');
  mkdirSync(input, { recursive: true });
  // A project of its own, so no configuration of this package's is found.
  writeFileSync(join(project, 'package.json'), '{"private":true}\n');
  for (const ledger of gen.ledgers) copyFileSync(join(out, ledger, 'comment.md'), join(input, `${ledger}.md`));
  const site = join(project, '_site');
  const eleventy = (): Timed => {
    rmSync(site, { recursive: true, force: true });
    const r = timeProcess(process.execPath, [join(home, 'cmd.cjs'), '--input=src', '--output=_site', '--quiet'], { cwd: project, env: { ...process.env, NO_COLOR: '1' } });
    const pages = readdirSync(site).length;
    if (pages !== canvases) throw new Error(`Eleventy wrote ${pages} pages, not ${canvases}:\n${r.stdout}${r.stderr}`);
    return r;
  };
  const cmp = await interleave(
    ...pairs(ctx, 5, 1),
    () => {
      rmSync(out, { recursive: true, force: true });
      const r = build(ctx, env, out);
      expectBuilt(r, canvases, 0, 'cold');
      return r;
    },
    eleventy,
  );
  const version = (JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')) as { version: string }).version;
  return {
    ...base,
    measured: `cold canvas build of ${canvases} canvases of ${spec.minNodes}-${spec.maxNodes} nodes (${spec.commits} commits): page, comment and prompt each, and the index`,
    baseline: `cold Eleventy ${version} build (defaults) of the ${canvases} comments as Markdown`,
    ...cmp,
    pass: cmp.ratio.median <= 1.0,
    figure: `${ms(cmp.a)} against ${ms(cmp.b)}; CPU ${(cmp.cpu!.a.median / 1000).toFixed(2)} s against ${(cmp.cpu!.b.median / 1000).toFixed(2)} s`,
    detail: { canvases, eleventy: version },
  };
}
