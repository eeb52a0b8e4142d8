// What a build of dist/ is made from, and a record of the inputs the last build used, so the test
// suite can tell whether dist/ is the build of the sources as they are now and skip building again
// (docs/testing.md, "Nothing built twice"). A stale build is never taken for a fresh one: the
// record is removed before a build starts and written only once it has finished, and it names the
// hash of every input, so an edit to any of them, or an install that changed node_modules, makes
// it stale.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPILED } from './templates.js';

/**
 * The inputs besides every file under src/: the build's configuration, its scripts, the templates
 * it compiles into src/render/html/templates.ts (scripts/templates.js), the installed packages.
 */
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.js',
  'scripts/build-inputs.js',
  'scripts/templates.js',
  ...COMPILED.map(({ file }) => `templates/${file}`),
  'node_modules/.package-lock.json',
];

/** What each kind of build writes: `cli` is `build.js --cli-only`, `full` the library and the CLI. */
const OUTPUTS = {
  cli: ['dist/cli/start.cjs', 'dist/cli/canvas.cjs', 'dist/cli/canvas-lazy.cjs', 'dist/cli/site-worker.cjs', 'dist/cli/bundles.sha256', 'dist/serve/live.js', 'dist/mcp/app.js'],
  full: ['dist/lib/index.js', 'dist/lib/index.d.ts'],
};

/**
 * The record: beside dist/, so the package does not ship it, and in the tree whose dist/ it
 * describes (not under node_modules/, which a copy of the sources may share by a link).
 */
const record = (root) => join(root, '.build-inputs.json');

function walk(root, dir, out) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, path, out);
    else out.push(path);
  }
  return out;
}

/** sha256 (hex) over the path and bytes of every input of the build rooted at `root`. */
function inputsHash(root) {
  const hash = createHash('sha256');
  for (const path of [...walk(root, 'src', []).sort(), ...FILES]) {
    const file = join(root, path);
    hash.update(`${path}\n`);
    hash.update(existsSync(file) ? readFileSync(file) : '(absent)');
    hash.update('\n');
  }
  return hash.digest('hex');
}

function readRecord(root) {
  try {
    return JSON.parse(readFileSync(record(root), 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Forget every build: called before a build touches dist/ (a CLI build replaces part of a full
 * one, so it forgets both). Returns the inputs' hash as they are now, for {@link recordBuilds}.
 */
export function forgetBuilds(root) {
  rmSync(record(root), { force: true });
  return inputsHash(root);
}

/** Record that the builds of `kinds` finished, from the inputs whose hash {@link forgetBuilds} returned before they began. */
export function recordBuilds(root, kinds, hash) {
  writeFileSync(record(root), JSON.stringify(Object.fromEntries(kinds.map((k) => [k, hash]))));
}

/** Whether dist/ holds a finished build of `kind` ('cli' or 'full') of the inputs as they are now. */
export function isBuilt(root, kind) {
  const outputs = kind === 'full' ? [...OUTPUTS.cli, ...OUTPUTS.full] : OUTPUTS.cli;
  const r = readRecord(root);
  return r[kind] !== undefined && outputs.every((f) => existsSync(join(root, f))) && r[kind] === inputsHash(root);
}
