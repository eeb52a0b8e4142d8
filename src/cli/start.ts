// The CLI's start (dist/cli/start.cjs, required by bin/canvas.js): runs the bundles of dist/cli
// (scripts/build.js) through a compile cache (docs/performance.md, "Start-up"; docs/cli.md,
// "Start-up and the compile cache").
//
// Where Node has `module.enableCompileCache` (22.1+), that is the cache. Node 20 has none, and
// compiling the bundles is much of what a short command costs beyond `node -e 0`. Measured on
// Node 20.20 (40 alternating runs of each, same workspace, medians of user+sys CPU time on the
// shared machine under load): with the cache below, `canvas read` 126 ms and `canvas replace`
// 144 ms; the same bundles without it 148 ms and 169 ms (15-17% more); one plain bundle of
// everything without it 177 ms and 204 ms (40% more), which would miss the CLI targets of
// docs/performance.md. So on Node 20 each bundle is compiled as a `vm.Script` with the cached data
// a previous run of the same command left; when there was none (or V8 refused it), the data is
// made at exit, after the command ran, so it holds every function the command compiled, not only
// the top level (only by a run that exits 0).
import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { removeIfAbandoned } from '../store/files/remove-if-abandoned.js';
import { COMMAND_NAMES } from './command-names.js';

/** The entry bundle; it requires `./canvas-lazy.cjs` when an import() of a lazy module runs. */
const ENTRY = join(__dirname, 'canvas.cjs');

/** What a bundle's `module` is here: its exports, as the bundle sets them. */
type Loaded = { exports: Record<string, unknown> };

/** The bundles run so far, by absolute path (each runs once per process). */
const loaded = new Map<string, Loaded>();

/** At most this many cache files are kept in the directory; the oldest go first. */
const MAX_FILES = 100;

/** A cache file's private file, `<cache>.bin.<pid>.tmp`: the pid of the run that wrote it. */
const PRIVATE = /\.bin\.([1-9]\d{0,6})\.tmp$/;

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
 * Write the cached data of a script (atomically, behind its checksum), remove what an older
 * build left for the same command and the private files of runs killed before their rename
 * ({@link removeIfAbandoned}: their process gone and an hour old), and keep the directory to
 * {@link MAX_FILES} files. The one `readdir` it needs for that is made at a save, never at a run
 * that takes the cache.
 */
function saveCache(script: Script, dir: string, cachePath: string, prefix: string): void {
  const tmp = `${cachePath}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    const head = Buffer.alloc(4);
    head.writeUInt32BE(crc32(data), 0);
    writeFileSync(tmp, Buffer.concat([head, data]), { mode: 0o600 });
    renameSync(tmp, cachePath);
    const all = readdirSync(dir);
    for (const name of all) {
      const pid = PRIVATE.exec(name)?.[1];
      if (pid !== undefined) removeIfAbandoned(join(dir, name), Number(pid));
    }
    const names = all.filter((name) => name.endsWith('.bin') && join(dir, name) !== cachePath);
    const kept: Array<{ path: string; at: number }> = [];
    for (const name of names) {
      const path = join(dir, name);
      if (name.startsWith(prefix)) rmSync(path, { force: true });
      else kept.push({ path, at: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 });
    }
    kept.sort((a, b) => a.at - b.at);
    for (const f of kept.slice(0, Math.max(0, kept.length + 1 - MAX_FILES))) rmSync(f.path, { force: true });
  } catch {
    // The cache is an optimisation: a full disk or a read-only directory costs only speed.
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do at exit.
    }
  }
}

/**
 * Run one bundle of dist/cli through the cache in `dir` (Node 20), once per process. Its
 * `require` of another bundle (`./canvas-lazy.cjs`, `./canvas.cjs`) comes back here; any other
 * id goes to Node's `require` from the bundle's place.
 *
 * @param file - the bundle's absolute path
 * @param dir - the cache directory ({@link cacheDir})
 * @returns its `module.exports`
 */
function loadBundle(file: string, dir: string): Record<string, unknown> {
  const seen = loaded.get(file);
  if (seen) return seen.exports;
  const bytes = readFileSync(file);
  // One file per bundle, install path, command (anything that is not a command shares `_`), Node
  // version and flags (V8 refuses data made under others); named also by the CRC-32 and length of
  // the bundle's bytes (0.1-0.3 ms), so any other build, however it was copied or unpacked and
  // whatever times its file has, gets other data, and replaces the file an older build left.
  const command = COMMAND_NAMES.includes(process.argv[2] ?? '') ? process.argv[2] : '_';
  const runtime = `${process.version}:${process.execArgv.join(' ')}:${process.env.NODE_OPTIONS ?? ''}`;
  const prefix = `${basename(file)}.${command}.${fnv(`${file}\n${runtime}`)}.`;
  const cachePath = join(dir, `${prefix}${fnv(`${bytes.length}:${crc32(bytes)}`)}.bin`);
  const cached = readCache(cachePath);
  // The wrapper keeps the bundle's first line on line 1, as Node's own module wrapper does. The
  // build writes the bundles in ASCII, copied here into a one-byte string rather than decoded as
  // UTF-8 (scripts/build.js, step 3b).
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const source = `(function (exports, require, module, __filename, __dirname) {${text}\n})`;
  const script = new Script(source, { filename: file, ...(cached ? { cachedData: cached } : {}) });
  // Only a run that succeeded: data made at the exit of a refused one holds only what it compiled
  // (a replace refused before it wrote: about 390 KB against 540 KB), and every later run of the
  // command would take it, compiling the rest each time.
  if (!cached || script.cachedDataRejected) process.once('exit', (code) => code === 0 && saveCache(script, dir, cachePath, prefix));
  const module: Loaded = { exports: {} };
  loaded.set(file, module);
  const fromHere = nodeModule.createRequire(file);
  const require = Object.assign((id: string): unknown => (/^\.\/[^/]+\.cjs$/.test(id) ? loadBundle(join(dirname(file), id), dir) : fromHere(id)), {
    resolve: fromHere.resolve,
  });
  const run = script.runInThisContext() as (exports: object, require: unknown, module: Loaded, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, require, module, file, dirname(file));
  return module.exports;
}

const dir = cacheDir();
const enableCompileCache = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
if (dir && enableCompileCache) {
  enableCompileCache(dir);
  require(ENTRY);
} else if (dir) {
  loadBundle(ENTRY, dir);
} else {
  require(ENTRY);
}
