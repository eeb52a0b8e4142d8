// The benchmark runner's arguments (bench/lib/bench-args.ts, bench/run.ts): read strictly, so
// that `npm run bench -- --help` prints the usage instead of running every full-size benchmark,
// and a misspelt option or benchmark name stops the runner before anything is generated.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_NAMES } from '../bench/benchmarks/index.js';
import { parseBenchArgs } from '../bench/lib/bench-args.js';
import { type BundledScript, bundleScript } from './helpers/bundle-script.js';
import { tempDir } from './helpers/temp-dir.js';
import { ROOT } from './helpers/workspace.js';

describe('parseBenchArgs', () => {
  it('--help and -h print the options and every benchmark name, and exit 0', () => {
    for (const argv of [['--help'], ['-h'], ['--quick', '--help']]) {
      const got = parseBenchArgs(argv, BENCH_NAMES);
      expect(got.kind === 'exit' && got.code).toBe(0);
      if (got.kind !== 'exit') continue;
      expect(got.stderr).toBe('');
      for (const option of ['--quick', '--only', '--strict', '--help']) expect(got.stdout).toContain(option);
      const listed = /^Benchmarks \(for --only\): (.*)$/m.exec(got.stdout)?.[1];
      expect(listed?.split(', ')).toEqual([...BENCH_NAMES]);
    }
  });

  it('the names are the runner’s: the sample verify first, every benchmark, growth last, none twice', () => {
    expect(BENCH_NAMES[0]).toBe('verify');
    expect(BENCH_NAMES.at(-1)).toBe('growth');
    expect(BENCH_NAMES).toContain('cli-edit');
    expect(new Set(BENCH_NAMES).size).toBe(BENCH_NAMES.length);
  });

  it.each([
    [['--quik'], "'--quik'"],
    [['--help-me'], "'--help-me'"],
    [['quick'], "'quick'"],
    [['--only'], "'--only"],
    [['--quick=yes'], "'--quick'"],
  ])('refuses %j with exit 2, naming it, before anything runs', (argv, named) => {
    const got = parseBenchArgs(argv, BENCH_NAMES);
    expect(got.kind).toBe('exit');
    if (got.kind !== 'exit') return;
    expect(got.code).toBe(2);
    expect(got.stdout).toBe('');
    expect(got.stderr.split('\n')[0]).toContain(named);
    expect(got.stderr).toContain(`Benchmarks (for --only): ${BENCH_NAMES.join(', ')}`);
  });

  it('an unknown name in --only exits 2 naming it and the list; so does an empty one', () => {
    const got = parseBenchArgs(['--quick', '--only', 'cli-edit,cli-raed'], BENCH_NAMES);
    expect(got.kind === 'exit' && got.code).toBe(2);
    if (got.kind !== 'exit') return;
    expect(got.stderr.split('\n')[0]).toBe(`bench: unknown benchmark in --only: 'cli-raed'; the benchmarks are ${BENCH_NAMES.join(', ')}`);
    const empty = parseBenchArgs(['--only', 'cli-edit,'], BENCH_NAMES);
    expect(empty.kind === 'exit' && empty.stderr.split('\n')[0]).toContain('an empty name');
  });

  it('keeps --quick, --strict and --only a,b as they were; --only may be repeated or given with =', () => {
    expect(parseBenchArgs([], BENCH_NAMES)).toEqual({ kind: 'run', quick: false, strict: false, only: null });
    expect(parseBenchArgs(['--quick'], BENCH_NAMES)).toEqual({ kind: 'run', quick: true, strict: false, only: null });
    expect(parseBenchArgs(['--strict', '--only', 'cli-edit,growth', '--only=verify'], BENCH_NAMES)).toEqual({
      kind: 'run',
      quick: false,
      strict: true,
      only: new Set(['cli-edit', 'growth', 'verify']),
    });
  });
});

describe('bench/run.ts', () => {
  let runner: BundledScript;
  beforeAll(async () => {
    runner = await bundleScript('bench/run.ts');
  });
  afterAll(() => runner?.remove());

  it('an unknown option exits 2 naming it, with nothing generated, measured or written (one real run)', () => {
    const results = join(ROOT, 'bench', 'results.json');
    const before = existsSync(results) ? statSync(results).mtimeMs : null;
    // A run makes its scratch directory and its cached workspaces in the temporary directory
    // (bench/lib/context.ts, bench/lib/generate-workspace.ts) and writes bench/results.json.
    const tmp = tempDir('canvas-bench-args-');
    const run = spawnSync(process.execPath, [runner.path, '--quick', '--olny', 'cli-edit'], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, TMPDIR: tmp } });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toContain("'--olny'");
    expect(run.stderr).toContain(BENCH_NAMES.join(', '));
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(results) ? statSync(results).mtimeMs : null).toBe(before);
  });
});
