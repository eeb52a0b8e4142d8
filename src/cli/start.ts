// The CLI's start: runs the CommonJS bundles of dist/cli through V8's code cache. Node 20 has
// no module compile cache (`module.enableCompileCache` arrived in Node 22), and compiling the
// bundle is most of what a short command costs beyond `node -e 0` (docs/performance.md,
// "Start-up"). Each bundle is compiled as a `vm.Script` with the cached data a previous run of
// the same command left, and when there was none (or V8 refused it), the data is made at exit,
// after the command ran, so it holds every function the command compiled, not only the top level.
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What `require` of a bundle gives: its `module.exports`. */
type Exports = Record<string, unknown>;

interface Loaded {
  exports: Exports;
}

/** The internals of node:module this start uses (stable since Node 0.x, used by every preloader). */
interface ModuleInternals {
  new (id: string, parent?: unknown): { filename: string; paths: string[]; exports: Exports; loaded: boolean; require(id: string): unknown };
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
  _resolveFilename(request: string, parent: unknown): string;
}

const NodeModule = Module as unknown as ModuleInternals;
const loaded = new Map<string, Loaded>();

/**
 * The directory of the cache, or null when it is off or not safe to use: `CANVAS_DISABLE_COMPILE_CACHE=1`
 * turns it off; `CANVAS_COMPILE_CACHE=<dir>` chooses it; by default it is
 * `<tmpdir>/canvas-compile-cache-<uid>`. A directory another user owns, or that others may write,
 * is not used (its data would be run as code).
 */
function cacheDir(): string | null {
  if (process.env.CANVAS_DISABLE_COMPILE_CACHE === '1') return null;
  const uid = process.getuid?.() ?? 0;
  const dir = process.env.CANVAS_COMPILE_CACHE || join(tmpdir(), `canvas-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
    return dir;
  } catch {
    return null;
  }
}

/** FNV-1a of a string, as 8 hex digits (a cache file's key; not a security boundary). */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The command a run names (the cache is kept per command), or `_` for anything else. */
function commandOf(argv: string[]): string {
  const c = argv[2] ?? '';
  return /^[a-z][a-z-]{0,31}$/.test(c) ? c : '_';
}

/**
 * Load one bundle of dist/cli (once per process), through the code cache.
 *
 * @param file - the bundle's absolute path
 * @returns its `module.exports`
 */
function loadBundle(file: string): Exports {
  const seen = loaded.get(file);
  if (seen) return seen.exports;
  const fd = openSync(file, 'r');
  let source: string;
  let key: string;
  try {
    const st = fstatSync(fd);
    source = readFileSync(fd, 'utf8');
    // The bundle's identity and everything V8 checks the data against (its version, the flags).
    key = fnv(`${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${process.version}:${process.execArgv.join(' ')}:${process.env.NODE_OPTIONS ?? ''}`);
  } finally {
    closeSync(fd);
  }
  const dir = cacheDir();
  // One cache file per bundle path and command; a newer build of the same path replaces the older.
  const prefix = `${basename(file)}.${commandOf(process.argv)}.${fnv(file)}.`;
  const cachePath = dir ? join(dir, `${prefix}${key}.bin`) : null;
  let cached: Buffer | undefined;
  if (cachePath) {
    try {
      cached = readFileSync(cachePath);
    } catch {
      cached = undefined;
    }
  }
  const script = new Script(NodeModule.wrap(source), { filename: file, ...(cached ? { cachedData: cached } : {}) });
  if (dir && cachePath && (!cached || script.cachedDataRejected)) {
    process.once('exit', () => saveCache(script, dir, cachePath, prefix));
  }
  const mod = new NodeModule(file);
  mod.filename = file;
  mod.paths = NodeModule._nodeModulePaths(dirname(file));
  const entry: Loaded = { exports: mod.exports };
  loaded.set(file, entry);
  const require = (id: string): unknown => (id.startsWith('./') && id.endsWith('.cjs') ? loadBundle(join(dirname(file), id)) : mod.require(id));
  require.resolve = (id: string) => NodeModule._resolveFilename(id, mod);
  const run = script.runInThisContext() as (exports: Exports, require: unknown, module: unknown, filename: string, dirname: string) => void;
  run.call(mod.exports, mod.exports, require, mod, file, dirname(file));
  mod.loaded = true;
  entry.exports = mod.exports;
  return mod.exports;
}

/** Write the cached data of a script (atomically) and remove what earlier builds left for the command. */
function saveCache(script: Script, dir: string, cachePath: string, prefix: string): void {
  try {
    const tmp = `${cachePath}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, cachePath);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith('.bin') && join(dir, name) !== cachePath) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // The cache is an optimisation: a full disk or a read-only directory costs only speed.
  }
}

loadBundle(join(__dirname, 'canvas.cjs'));
