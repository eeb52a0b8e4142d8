// The package as a user gets it (docs/library.md, "Install"): `npm pack` of the checkout, the
// tarball installed into an empty project offline (npm ci from
// the local cache, against a lockfile holding the versions this checkout locks), then the
// README's commands from another directory, its library example, `npx`, `require()` and each
// subpath entry, run there. What is packed is dist/ as `npm run build` left it when it is the
// build of the sources as they are (`npm test` has just built; scripts/build-inputs.js keeps the
// record), since `prepare`, which builds a package before npm packs it, is that same script;
// otherwise a copy of the sources, whose `prepare` builds dist/ there.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetBuilds, isBuilt, recordBuilds } from '../scripts/build-inputs.js';
import { ROOT } from './helpers/workspace.js';
import { tempDir } from './helpers/temp-dir.js';

/** What `npm pack` and `git clone` would see of the project: the sources the build and the package need. */
const SOURCES = ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'bin', 'src', 'schema', 'templates', 'docs', 'scripts'];

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  [key: string]: unknown;
}

interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  bin: Record<string, string>;
  engines: Record<string, string>;
  scripts: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/**
 * An environment for npm and node with nothing of this checkout's own npm run in it, but the
 * run's compile cache (test/helpers/setup-env.ts): the default one would be made in the temporary
 * directory and left there.
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|NODE_OPTIONS$|VITEST|CANVAS_)/.test(k)) env[k] = v;
  if (process.env.CANVAS_COMPILE_CACHE) env.CANVAS_COMPILE_CACHE = process.env.CANVAS_COMPILE_CACHE;
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The README's library example: the code block under "## Library". */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /^## Library\n+```js\n([\s\S]*?)\n```/m.exec(readme);
  if (!m) throw new Error('README.md has no ```js block under "## Library"');
  return `${m[1]}\n`;
}

/** The command lines of the README's "Use" block: continuations joined, comments dropped. */
function readmeUse(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /^## Use\n+```sh\n([\s\S]*?)\n```/m.exec(readme);
  if (!m) throw new Error('README.md has no ```sh block under "## Use"');
  return m[1]!
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/** The words of a command line that quotes with double quotes only (as the README's do). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/**
 * A lockfile for a project depending on the tarball alone: the tarball's entry, and every
 * package this checkout locks for production (not dev), at the same place in the tree. So
 * `npm ci --offline` takes each from the local cache, which `npm ci` of this checkout filled.
 */
function appLock(tarball: string, integrity: string, registry: string): object {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { [manifest.name]: `file:${tarball}` } },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: `file:${tarball}`,
      integrity,
      license: 'MIT',
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || entry.devOptional || entry.link) continue;
    // With its tarball's URL, npm takes the tarball from the cache by its integrity and needs no
    // metadata of the package (which an offline install may not have).
    const name = typeof entry.name === 'string' ? entry.name : path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const resolved = entry.resolved ?? `${registry.replace(/\/?$/, '/')}${name}/-/${name.slice(name.lastIndexOf('/') + 1)}-${entry.version}.tgz`;
    packages[path] = { ...entry, resolved };
  }
  return { name: 'app', lockfileVersion: 3, requires: true, packages };
}

describe('the packed package, installed into an empty project', () => {
  let dir: string;
  let app: string;
  let files: string[];
  beforeAll(() => {
    dir = realpathSync(tempDir('canvas-pack-'));
    let packs = ROOT;
    const args = ['pack', '--json', '--pack-destination', dir];
    if (isBuilt(ROOT, 'full')) args.push('--ignore-scripts');
    else {
      packs = join(dir, 'copy');
      mkdirSync(packs);
      for (const f of SOURCES) cpSync(join(ROOT, f), join(packs, f), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(packs, 'node_modules'));
      // npm pack runs `prepare`, which builds dist/ in the copy.
    }
    const packed = run('npm', args, packs);
    expect(packed.code, packed.stderr).toBe(0);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; integrity: string; files: Array<{ path: string }> }>;
    files = info!.files.map((f) => f.path);
    const tarball = join(dir, info!.filename);
    app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { [manifest.name]: `file:${tarball}` } }, null, 2)}\n`);
    const registry = run('npm', ['config', 'get', 'registry'], app).stdout.trim();
    writeFileSync(join(app, 'package-lock.json'), `${JSON.stringify(appLock(tarball, info!.integrity, registry), null, 2)}\n`);
    const installed = run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], app);
    expect(installed.code, installed.stderr).toBe(0);
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('builds before it packs with the script of `npm run build`, so the build of the checkout is what a pack holds', () => {
    expect(manifest.scripts.prepare).toBe(manifest.scripts.build);
  });

  it('ships the built library, its types and the CLI, and no sources, tests or second copy of the CLI', () => {
    for (const f of ['bin/canvas.js', 'dist/cli/start.cjs', 'dist/cli/canvas.cjs', 'dist/cli/canvas-lazy.cjs', 'schema/canvas.rng', 'templates/page.css', 'README.md']) {
      expect(files, f).toContain(f);
    }
    for (const [key, target] of Object.entries(manifest.exports)) {
      const paths = typeof target === 'string' ? [target] : [target.types, target.default];
      for (const p of paths) expect(files, key).toContain(p.replace(/^\.\//, ''));
    }
    // Nor the CLI's modules as a library: the command runs from the bundles in dist/cli.
    expect(files.filter((f) => /^(src|test|snapshots|bench|dist\/lib\/cli)\//.test(f))).toEqual([]);
  });

  it('canvas --version, from another directory, is the package version', () => {
    const r = run(join(app, 'node_modules', '.bin', 'canvas'), ['--version'], tmpdir());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(manifest.version);
  });

  it('npx task-canvas runs the one command, in the project that installed it', () => {
    const r = run('npx', ['--offline', manifest.name, '--version'], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(manifest.version);
  });

  it('every command of the README\'s "Use" works from another directory', () => {
    const ws = join(dir, 'use');
    const cwd = join(dir, 'elsewhere');
    mkdirSync(cwd);
    const env = cleanEnv({ CANVAS_WORKSPACE: ws, CANVAS_AUTHOR: 'leo | by-hand' });
    const bin = join(app, 'node_modules', '.bin', 'canvas');
    let sha = '';
    let node = '';
    let expected = '';
    for (const line of readmeUse()) {
      if (line.startsWith('export ')) continue;
      if (line.startsWith('mkdir -p ')) {
        mkdirSync(ws, { recursive: true });
        continue;
      }
      const args = shellWords(
        line
          .replace(/<sha>/g, sha)
          .replace(/<node>/g, node)
          .replace(/<expected>/g, expected),
      );
      expect(args[0], line).toBe('canvas');
      const r = run(bin, args.slice(1), cwd, env);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      sha = /^Canvas-Base: ([0-9a-f]{40})$/m.exec(r.stdout)?.[1] ?? sha;
      node = /^applied insert (\S+)$/m.exec(r.stdout)?.[1] ?? node;
      expected = /^nodes: \S+ (\S+)$/m.exec(r.stdout)?.[1] ?? expected;
    }
    expect(node).not.toBe('');
    // The question reads after the problem and the expected value, as the README's order says.
    const read = run(bin, ['read', 'fix-login'], cwd, env);
    expect([...read.stdout.matchAll(/ id="([a-z0-9]+)"/g)].map((m) => m[1]).at(-1)).toBe(node);
    expect(existsSync(join(cwd, 'page.html'))).toBe(true);
    expect(existsSync(join(cwd, 'site', 'fix-login', 'index.html'))).toBe(true);
  });

  it("runs the README's library example", () => {
    const ws = join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(join(app, 'example.mjs'), readmeExample());
    const r = run(process.execPath, ['example.mjs'], app, cleanEnv({ CANVAS_WORKSPACE: ws }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^applied [0-9a-f]{40}\n$/);
    // What the example wrote is a canvas the installed CLI reads.
    const read = run(join(app, 'node_modules', '.bin', 'canvas'), ['read', 'fix-login', '--workspace', ws], tmpdir());
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('answered="true"');
  });

  it('require() of the package works (Node 20.19 and later load ES modules)', () => {
    const r = run(process.execPath, ['-e', `const c = require(${JSON.stringify(manifest.name)}); process.stdout.write(typeof c.readCanvas + ' ' + typeof c.CanvasError)`], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('function function');
  });

  it('every subpath entry imports, by its name', () => {
    const keys = Object.keys(manifest.exports).filter((k) => k !== '.' && k !== './package.json');
    const script = `for (const k of ${JSON.stringify(keys)}) { const m = await import(${JSON.stringify(manifest.name)} + k.slice(1)); if (Object.keys(m).length === 0) throw new Error(k); } process.stdout.write('ok');`;
    const r = run(process.execPath, ['--input-type=module', '-e', script], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('ok');
    expect(existsSync(join(app, 'node_modules', manifest.name, 'dist', 'lib', 'render', 'index.d.ts'))).toBe(true);
  });
});

describe("the record of what dist/ was built from, which lets the suite take the checkout's build", () => {
  const OUT = [
    'dist/cli/start.cjs',
    'dist/cli/canvas.cjs',
    'dist/cli/canvas-lazy.cjs',
    'dist/cli/site-worker.cjs',
    'dist/cli/bundles.sha256',
    'dist/serve/live.js',
    'dist/mcp/app.js',
    'dist/lib/index.js',
    'dist/lib/index.d.ts',
  ];
  let root: string;
  const put = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  beforeAll(() => {
    root = tempDir('canvas-build-record-');
    for (const f of ['src/a.ts', 'src/store/b.ts', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json', ...OUT]) put(f, f);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('holds a build until one of its inputs changes, a file is added under src/ or an output is gone', () => {
    expect(isBuilt(root, 'cli')).toBe(false);
    recordBuilds(root, ['cli'], forgetBuilds(root));
    expect([isBuilt(root, 'cli'), isBuilt(root, 'full')]).toEqual([true, false]);
    for (const [path, change] of [
      ['src/store/b.ts', 'edited'],
      ['src/new/c.ts', 'added'],
      ['package.json', 'another version'],
      ['node_modules/.package-lock.json', 'another install'],
    ] as const) {
      const before = existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;
      put(path, change);
      expect(isBuilt(root, 'cli'), path).toBe(false);
      if (before === undefined) rmSync(join(root, path));
      else put(path, before);
      expect(isBuilt(root, 'cli'), path).toBe(true);
    }
    rmSync(join(root, 'dist/cli/canvas-lazy.cjs'));
    expect(isBuilt(root, 'cli')).toBe(false);
    put('dist/cli/canvas-lazy.cjs', 'rebuilt');
    expect(isBuilt(root, 'cli')).toBe(true);
  });

  it('is forgotten when a build starts, and names the inputs as they were then', () => {
    recordBuilds(root, ['cli', 'full'], forgetBuilds(root));
    expect([isBuilt(root, 'cli'), isBuilt(root, 'full')]).toEqual([true, true]);
    // A CLI build replaces part of a full one: from its start, neither is held.
    const inputs = forgetBuilds(root);
    expect([isBuilt(root, 'cli'), isBuilt(root, 'full')]).toEqual([false, false]);
    // A source edited while the build ran: the build is of the sources before the edit.
    put('src/a.ts', 'edited during the build');
    recordBuilds(root, ['cli'], inputs);
    expect(isBuilt(root, 'cli')).toBe(false);
  });

  it("is of the tree whose dist/ it describes: a copy's build, its node_modules a link to these, holds nothing here", () => {
    forgetBuilds(root);
    const copy = tempDir('canvas-build-copy-');
    try {
      cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
      for (const f of ['package.json', 'package-lock.json']) cpSync(join(root, f), join(copy, f));
      symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
      recordBuilds(copy, ['cli', 'full'], forgetBuilds(copy));
      expect([isBuilt(root, 'cli'), isBuilt(root, 'full')]).toEqual([false, false]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
