// Build: the library with its type declarations (tsc), and the CLI as CommonJS bundles that
// bin/canvas.js runs through V8's code cache (src/cli/start.ts; docs/performance.md, "Start-up"):
//
//   dist/cli/start.cjs        the start: loads canvas.cjs with its cached code
//   dist/cli/canvas.cjs       commands, the model and the store (reads and writes); every module
//                             reached only through import() is initialised when first used
//   dist/cli/canvas-lazy.cjs  what only some commands use: renderers, site, MCP, publish, import,
//                             the server of canvas serve
//   dist/cli/site-worker.cjs  a worker thread of the site build (renderers, snapshot reads)
//   dist/serve/live.js        the live tab's script, for the browser (src/serve/live/)
//   dist/mcp/app.js           the canvas view chat hosts draw, for the browser (src/mcp/app/)
//
// Two bundles rather than one because the numbers require it: one bundle of everything, with the
// compile cache, costs 5-6% more CPU per `canvas read` and `canvas replace` (esbuild hoists the
// functions of every lazily initialised module to the bundle's top level, so all of them are
// created at start), which is the edit target's whole margin (docs/performance.md, "Start-up").
//
// Each module is in exactly one bundle. The entry exposes a registry of its modules
// (`shared`); canvas-lazy.cjs takes every module the entry holds from there instead of a copy,
// so a class or a per-process pool exists once. The entry reaches the lazy modules through the
// lazy bundle's registry (`lazy`), and only when an import() runs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve as resolvePath } from 'node:path';
import { build } from 'esbuild';
import { forgetBuilds, isBuilt, recordBuilds } from './build-inputs.js';
import { writeTemplatesModule } from './templates.js';

const ROOT = process.cwd();
const OUT = 'dist/cli';
/** The live tab's script, bundled for the browser (src/serve/live-script.ts reads it). */
const LIVE_SCRIPT = 'dist/serve/live.js';
/** The view chat hosts draw, bundled for the browser (src/mcp/register-canvas-app.ts inlines it). */
const APP_SCRIPT = 'dist/mcp/app.js';
/** The package's version, written into the bundles (`CANVAS_VERSION`, src/store/files/read-package-version.ts). */
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
/** Modules under these directories, reached by import() from the entry, go to canvas-lazy.cjs. */
const LAZY_DIRS = /^src\/(render|mcp|publish|import|figures|check|serve)\/|^src\/site\/load-renderers\.ts$/;
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // import() of the external packages becomes require(): the bundles run as scripts, outside the
  // ES module loader. Each of these packages ships CommonJS but @bomb.sh/tab (the completion
  // scripts, ES modules only, without top-level await), which Node 20.19+ require()s as well.
  supported: { 'dynamic-import': false },
  external: ['jsdom', 'dompurify', '@modelcontextprotocol/server', 'ajv', 'playwright-core', 'zod', 'openai', '@bomb.sh/tab'],
  // Bundled modules find the package's files (templates, vendored Mermaid) from import.meta.url,
  // made when first asked for: every command starts the bundle, few ask (a file URL of a long
  // path is about 0.5 ms of a start under the profiler).
  define: { 'import.meta.url': '__canvasModule.url', CANVAS_VERSION: JSON.stringify(version) },
  banner: { js: "const __canvasModule = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  logLevel: 'warning',
};

const cliOnly = process.argv.includes('--cli-only');
// --if-stale: nothing to do when dist/ is already the build of the sources as they are (`npm test`
// after `npm ci`, whose `prepare` has just built).
if (process.argv.includes('--if-stale') && isBuilt(ROOT, cliOnly ? 'cli' : 'full')) {
  console.log('dist/ is the build of the sources as they are: nothing to build');
  process.exit(0);
}
// What a page inlines from templates/ is compiled into src/render/html/templates.ts first, so the
// renderers read no file (scripts/templates.js).
writeTemplatesModule(ROOT);
// The test suite skips its build when this one's record says dist/ is of the sources as they are
// (scripts/build-inputs.js).
const inputs = forgetBuilds(ROOT);
if (!cliOnly) {
  rmSync('dist', { recursive: true, force: true });
  execFileSync('node_modules/.bin/tsc', ['-p', 'tsconfig.build.json'], { stdio: 'inherit' });
} else {
  rmSync(OUT, { recursive: true, force: true });
  rmSync(LIVE_SCRIPT, { force: true });
}

const rel = (p) => relative(ROOT, p).split('\\').join('/');

/** A plugin sending the entry's import() of a lazy module to canvas-lazy.cjs; collects them. */
function toLazy(targets) {
  return {
    name: 'canvas-to-lazy',
    setup(b) {
      b.onResolve({ filter: /^\.\/canvas-lazy\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData?.canvas) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { canvas: true } });
        if (r.errors.length > 0 || r.external) return undefined;
        const key = rel(r.path);
        if (!LAZY_DIRS.test(key)) return undefined;
        targets.add(key);
        return { path: key, namespace: 'canvas-lazy' };
      });
      b.onLoad({ filter: /.*/, namespace: 'canvas-lazy' }, (args) => ({
        contents: `module.exports = require('./canvas-lazy.cjs').lazy[${JSON.stringify(args.path)}]();`,
        loader: 'js',
      }));
    },
  };
}

/** A plugin taking every module the entry holds from the entry's registry. */
function fromEntry(shared) {
  return {
    name: 'canvas-from-entry',
    setup(b) {
      b.onResolve({ filter: /^\.\/canvas\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.canvas || args.namespace === 'canvas-shared') return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { canvas: true } });
        if (r.errors.length > 0 || r.external) return undefined;
        const key = rel(r.path);
        return shared.has(key) ? { path: key, namespace: 'canvas-shared' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'canvas-shared' }, (args) => ({
        contents: `module.exports = require('./canvas.cjs').shared[${JSON.stringify(args.path)}]();`,
        loader: 'js',
      }));
    },
  };
}

/** An entry module: `registry` maps each key to a function requiring that module, then `run`. */
function registryEntry(name, keys, run) {
  const lines = [`export const ${name} = {`];
  for (const k of [...keys].sort()) lines.push(`  ${JSON.stringify(k)}: () => require(${JSON.stringify(resolvePath(ROOT, k))}),`);
  lines.push('};');
  if (run) lines.push(`require(${JSON.stringify(resolvePath(ROOT, run))});`);
  return { contents: lines.join('\n'), resolveDir: ROOT, loader: 'js', sourcefile: `${name}-registry.js` };
}

// 1. The entry's module graph (nothing written): which modules it holds, which it leaves lazy.
const lazyTargets = new Set();
const probe = await build({ ...common, entryPoints: ['src/cli/canvas.ts'], write: false, outdir: OUT, metafile: true, plugins: [toLazy(lazyTargets)] });
const entryModules = new Set(Object.keys(probe.metafile.inputs).filter((k) => !k.includes(':')));

// 2. The entry, exposing every module it holds.
await build({
  ...common,
  stdin: registryEntry('shared', entryModules, 'src/cli/canvas.ts'),
  outfile: join(OUT, 'canvas.cjs'),
  plugins: [toLazy(new Set())],
});

// 3. The lazy bundle, taking the entry's modules from it.
await build({
  ...common,
  stdin: registryEntry('lazy', lazyTargets),
  outfile: join(OUT, 'canvas-lazy.cjs'),
  plugins: [fromEntry(entryModules)],
});

// 3b. Both bundles in ASCII. esbuild escapes what is not ASCII in strings, but comments and a
// regular expression keep theirs, and one such character makes the start decode the whole
// bundle into a two-byte string; in ASCII the start copies it into a one-byte string instead
// (latin1). Measured under callgrind: 2% fewer instructions for a read (docs/performance.md,
// "Start-up"). Escaping each UTF-16 unit keeps comments, regular expressions and identifiers the
// same to JavaScript.
for (const name of ['canvas.cjs', 'canvas-lazy.cjs']) {
  const file = join(OUT, name);
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

// 4. The site build's worker (src/site/site-worker.ts): a thread loads its own modules, so it is
// one bundle of everything it uses, sharing nothing with the others.
await build({ ...common, entryPoints: ['src/site/site-worker.ts'], outfile: join(OUT, 'site-worker.cjs') });

// 5. The start (no banner: it has no module to locate).
await build({ ...common, banner: {}, define: {}, entryPoints: ['src/cli/start.ts'], outfile: join(OUT, 'start.cjs') });

// 5b. The live tab's script (src/serve/live/, docs/serve.md): TypeScript modules for the browser,
// one ES module that `canvas serve` sends as /_canvas/live.js. Outside dist/cli, so the bundles'
// hash below (the site build's renderer version) does not move when only the tab changes.
await build({
  entryPoints: ['src/serve/live/main.ts'],
  outfile: LIVE_SCRIPT,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  charset: 'utf8',
  logLevel: 'warning',
});

// 5c. The canvas view chat hosts draw (src/mcp/app/, docs/mcp.md "The canvas in chat hosts"): the
// MCP Apps SDK's view side and what it imports, one ES module inlined into every ui://canvas/<ledger>
// page, so minified. Outside dist/cli for the same reason as the live tab's script.
await build({
  entryPoints: ['src/mcp/app/main.ts'],
  outfile: APP_SCRIPT,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
});

// 6. The bundles' hash, which the site build's renderer version takes instead of hashing 2 MB of
// bundles on every build (src/site/renderer-version.ts).
const bundles = createHash('sha256');
for (const name of readdirSync(OUT).sort()) bundles.update(`${name}\n`).update(readFileSync(join(OUT, name)));
writeFileSync(join(OUT, 'bundles.sha256'), `${bundles.digest('hex')}\n`);

recordBuilds(ROOT, cliOnly ? ['cli'] : ['cli', 'full'], inputs);
