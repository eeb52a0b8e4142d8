// The CLI's start: runs the CommonJS bundles of dist/cli through V8's code cache. Node 20 has
// no module compile cache (`module.enableCompileCache` arrived in Node 22), and compiling the
// bundle is much of what a short command costs beyond `node -e 0` (docs/performance.md,
// "Start-up"). Each bundle is compiled as a `vm.Script` with the cached data a previous run of
// the same command left, and when there was none (or it was refused), the data is made at exit,
// after the command ran, so it holds every function the command compiled, not only the top level.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { COMMAND_NAMES } from './command-names.js';

/** What `require` of a bundle gives: its `module.exports`. */
type Exports = Record<string, unknown>;

/** The internals of node:module this start uses (stable since Node 0.x, used by every preloader). */
interface ModuleInternals {
  new (id: string, parent?: unknown): { filename: string; paths: string[]; exports: Exports; loaded: boolean; require(id: string): unknown };
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
  _resolveFilename(request: string, parent: unknown): string;
}

const NodeModule = Module as unknown as ModuleInternals;
const loaded = new Map<string, { exports: Exports }>();

/** At most this many cache files are kept in the directory; the oldest go first. */
const MAX_FILES = 100;

/**
 * The directory of the cache, or null when it is off or cannot be used safely:
 * `CANVAS_DISABLE_COMPILE_CACHE` set (to anything but `0`) turns it off; `CANVAS_COMPILE_CACHE`
 * chooses it (an absolute path; its parent must exist); by default it is
 * `<tmpdir>/canvas-compile-cache-<uid>`. Only the last directory is ever created. A directory
 * that is a symbolic link, that another user owns, or that others may write is not used: its
 * files would run as code.
 */
function cacheDir(): string | null {
  const off = process.env.CANVAS_DISABLE_COMPILE_CACHE;
  if (off !== undefined && off !== '' && off !== '0') return null;
  const uid = process.getuid?.() ?? 0;
  const given = process.env.CANVAS_COMPILE_CACHE || join(tmpdir(), `canvas-compile-cache-${uid}`);
  if (!isAbsolute(given)) return null;
  // Normalised, so that `link/` or `link/.` is seen as the link it is.
  const dir = resolve(given);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // It exists (checked below), or it cannot be made: then there is no cache.
  }
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
    return dir;
  } catch {
    return null;
  }
}

/** FNV-1a of a string, as 8 hex digits (part of a cache file's name; not a security boundary). */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The command a run names (the cache is kept per command), or `_` for anything else. */
function commandOf(argv: string[]): string {
  const c = argv[2] ?? '';
  return COMMAND_NAMES.includes(c) ? c : '_';
}

/**
 * The cached data in a cache file, or undefined when there is none or it is damaged. A file is
 * the CRC-32 of the data (4 bytes, big-endian) and the data: V8 checks only the data's header
 * and length, and runs damaged data (it stops the process), so the start checks every byte.
 */
function readCache(path: string): Buffer | undefined {
  let file: Buffer;
  let fd: number | undefined;
  try {
    // Only a regular file: not a link to elsewhere, not a pipe a read would wait on forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return undefined;
    file = readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (file.length <= 4) return undefined;
  const data = file.subarray(4);
  return file.readUInt32BE(0) === crc32(data) ? data : undefined;
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
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  // The bundle's bytes, by their CRC-32 and length (0.1-0.3 ms): any other build, however it was
  // copied or unpacked and whatever times its file has, gets other data.
  const identity = `${bytes.length}:${crc32(bytes)}`;
  const dir = cacheDir();
  // One file per bundle path, command, Node version and flags (V8 refuses data made under
  // others); a new build of the same bundle replaces the file its older build left.
  const runtime = `${process.version}:${process.execArgv.join(' ')}:${process.env.NODE_OPTIONS ?? ''}`;
  const prefix = `${basename(file)}.${commandOf(process.argv)}.${fnv(`${file}\n${runtime}`)}.`;
  const cachePath = dir ? join(dir, `${prefix}${fnv(identity)}.bin`) : null;
  const cached = cachePath ? readCache(cachePath) : undefined;
  const script = new Script(NodeModule.wrap(source), { filename: file, ...(cached ? { cachedData: cached } : {}) });
  if (dir && cachePath && (!cached || script.cachedDataRejected)) {
    process.once('exit', () => saveCache(script, dir, cachePath, prefix));
  }
  const mod = new NodeModule(file);
  mod.filename = file;
  mod.paths = NodeModule._nodeModulePaths(dirname(file));
  const entry = { exports: mod.exports };
  loaded.set(file, entry);
  const require = (id: string): unknown => (id.startsWith('./') && id.endsWith('.cjs') ? loadBundle(join(dirname(file), id)) : mod.require(id));
  require.resolve = (id: string) => NodeModule._resolveFilename(id, mod);
  const run = script.runInThisContext() as (exports: Exports, require: unknown, module: unknown, filename: string, dirname: string) => void;
  run.call(mod.exports, mod.exports, require, mod, file, dirname(file));
  mod.loaded = true;
  entry.exports = mod.exports;
  return mod.exports;
}

/**
 * Write the cached data of a script (atomically, behind its checksum), remove what an older
 * build left for the same command, and keep the directory to {@link MAX_FILES} files.
 */
function saveCache(script: Script, dir: string, cachePath: string, prefix: string): void {
  const tmp = `${cachePath}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    const head = Buffer.alloc(4);
    head.writeUInt32BE(crc32(data), 0);
    writeFileSync(tmp, Buffer.concat([head, data]), { mode: 0o600 });
    renameSync(tmp, cachePath);
    const stale = (name: string) => name.startsWith(prefix) && join(dir, name) !== cachePath;
    const all = readdirSync(dir).filter((name) => name.endsWith('.bin'));
    for (const name of all.filter(stale)) rmSync(join(dir, name), { force: true });
    const files = all.filter((name) => !stale(name));
    if (files.length > MAX_FILES) {
      const byAge = files
        .map((name) => {
          try {
            return { path: join(dir, name), at: statSync(join(dir, name)).mtimeMs };
          } catch {
            return null;
          }
        })
        .filter((f) => f !== null && f.path !== cachePath)
        .sort((a, b) => a!.at - b!.at);
      for (const f of byAge.slice(0, files.length - MAX_FILES)) rmSync(f!.path, { force: true });
    }
  } catch {
    // The cache is an optimisation: a full disk or a read-only directory costs only speed.
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do at exit.
    }
  }
}

loadBundle(join(__dirname, 'canvas.cjs'));
