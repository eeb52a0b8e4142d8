// `node --import tsx bench/profile.ts [--quick] [--runs N]`: where the time of `canvas read` and
// `canvas replace` goes. Each command runs N times under `node --cpu-prof` on a copy of the edit
// workspace; the samples are attributed to the source module they came from (the bundle's
// `// path` region comments map each line of dist/cli to its module) and summed per run.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchContext, cliCommand, cliEnv, makeScratch } from './lib/context.js';
import { editText, setupEdits } from './lib/edit-loop.js';
import { GEN_AUTHOR } from './lib/generate-workspace.js';
import { timeProcess } from './lib/measure.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const runs = Number(args[args.indexOf('--runs') + 1] || (quick ? 3 : 10));

/** Each bundled file's regions: from a line on, the module it holds. */
const regions = new Map<string, Array<{ line: number; module: string }>>();
function moduleOf(url: string, line: number): string {
  if (url === '') return '(native)';
  if (url.startsWith('node:internal/modules') || url.startsWith('node:internal/bootstrap')) return 'node: module loader';
  if (url.startsWith('node:vm')) return 'node: vm (compiling a bundle)';
  if (url.startsWith('node:')) return `node: ${url.replace(/^node:(internal\/)?/, '').split('/')[0]!}`;
  if (!url.includes('/dist/cli/')) return url.split('/').slice(-2).join('/');
  // The start compiles each bundle as a script named by its path (older builds: a file: URL).
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  let r = regions.get(file);
  if (!r) {
    r = [];
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const m = /^\/\/ ((?:node_modules|src)\/\S+)$/.exec(text);
        if (m) r!.push({ line: i, module: m[1]!.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1') });
      });
    regions.set(file, r);
  }
  let found = 'dist/cli (bundle glue)';
  for (const x of r) if (x.line <= line) found = x.module;
  return found;
}

function attribute(dir: string, into: Map<string, number>): number {
  let total = 0;
  for (const f of readdirSync(dir)) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const n = byId.get(id)!;
      const name = n.callFrame.functionName;
      const key = name === '(idle)' || name === '(garbage collector)' || name === '(program)' ? name : moduleOf(n.callFrame.url, n.callFrame.lineNumber);
      const ms = (p.timeDeltas[i] ?? 0) / 1000;
      into.set(key, (into.get(key) ?? 0) + ms);
      total += ms;
    });
  }
  return total;
}

async function main(): Promise<void> {
  const ctx: BenchContext = { quick, root: ROOT, scratch: makeScratch(), log: (s) => process.stderr.write(`${s}\n`) };
  try {
    const setup = await setupEdits(ctx, 'profile');
    const [node, pre] = cliCommand(ctx);
    const env = cliEnv(setup.ws, GEN_AUTHOR);
    const commands: Array<[string, (i: number) => string[]]> = [
      ['canvas read', () => ['read', setup.ledger]],
      ['canvas replace', (i) => ['replace', setup.ledger, setup.blocks[i % setup.blocks.length]!, '--base', setup.revision, '--text', editText(i), '--why', 'profiling the edit']],
    ];
    for (const [name, argv] of commands) {
      const dir = join(ctx.scratch, name.replace(/\W+/g, '-'));
      mkdirSync(dir, { recursive: true });
      let wall = 0;
      for (let i = 0; i < runs; i += 1) {
        const r = timeProcess(node, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100', ...pre, ...argv(i)], { env });
        const m = /^Canvas-Base: ([0-9a-f]{40})$/m.exec(r.stdout);
        if (m) setup.revision = m[1]!;
        wall += r.ms;
      }
      const by = new Map<string, number>();
      const total = attribute(dir, by);
      process.stdout.write(`\n${name} (${setup.nodes}-node canvas): ${(wall / runs).toFixed(1)} ms wall, ${(total / runs).toFixed(1)} ms profiled per run\n`);
      for (const [k, ms] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 18)) {
        process.stdout.write(`  ${(ms / runs).toFixed(1).padStart(6)} ms  ${k}\n`);
      }
    }
  } finally {
    rmSync(ctx.scratch, { recursive: true, force: true });
  }
}

await main();
