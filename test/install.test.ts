// The README's install lines (its "Install" block), run as written in a fresh directory: a clone of
// this repository (its committed HEAD: the test clones the checkout, so commit what it should see),
// `npm ci`, `npm link`, then `canvas` from the PATH. npm reads its packages from the local cache
// (`npm_config_offline`, which `npm ci` of this checkout filled) and links into a prefix of the
// test's own, so nothing is fetched and nothing outside the temporary directory changes. What npm
// prints is held to the README's promise: no warning at all.
//
// Under `.ci/run` the checkout the suite runs in is that fresh directory already: a clean clone on
// a fresh machine, whose `npm ci` .ci/run has just run and kept the output of, in the file
// CANVAS_CI_INSTALL_LOG names. There the test holds that output to the same promise and runs the
// rest of the lines (`npm link --ignore-scripts`, `canvas --version`) in the checkout, instead of
// a second whole `npm ci` in a second clone (about 53 s of CPU and 80 s of wall time at idle:
// npm unpacking 650 packages, then the build) that would show nothing the first did not.
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/temp-dir.js';
import { ROOT } from './helpers/workspace.js';

/** The lines of the README's "Install" block: comments dropped, `a && b` split into two. */
function installLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /^## Install\n[\s\S]*?```sh\n([\s\S]*?)\n```/m.exec(readme);
  if (!m) throw new Error('README.md has no ```sh block under "## Install"');
  return m[1]!
    .split('\n')
    .flatMap((l) => l.replace(/\s+#.*$/, '').split('&&'))
    .map((l) => l.trim())
    .filter(Boolean);
}

/** npm's warning lines in what it printed. */
const warnings = (said: string) => said.split('\n').filter((l) => /^npm warn/i.test(l));

// A whole `npm ci` of the project (650 packages and the build): about 80 s of CPU, minutes of wall
// time on a loaded machine. It runs under CI (`CI=true`, as `.ci/run` sets), where the README's
// promise is kept for a fresh machine, and wherever CANVAS_TEST_INSTALL=1 asks for it.
const run = process.env.CI === 'true' || process.env.CANVAS_TEST_INSTALL === '1';
if (!run) console.log('test/install.test.ts: skipped (a whole npm ci): set CANVAS_TEST_INSTALL=1, or CI=true, to run it');
/** The output of .ci/run's own `npm ci` of this checkout, when .ci/run handed it over. */
const ciInstallLog = process.env.CANVAS_CI_INSTALL_LOG;

describe.runIf(run)("the README's install, in a fresh directory", () => {
  const dir = () => realpathSync(tempDir('canvas-install-'));
  /** npm's environment: nothing of this run's own npm, the test's prefix first on the PATH, offline. */
  const envFor = (prefix: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|NODE_OPTIONS$|VITEST|CANVAS_)/.test(k)) env[k] = v;
    return Object.assign(env, {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
      npm_config_prefix: prefix,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...(process.env.CANVAS_COMPILE_CACHE ? { CANVAS_COMPILE_CACHE: process.env.CANVAS_COMPILE_CACHE } : {}),
    });
  };
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  /** Run `line` in `cwd`; what it printed, after checking it exited 0 (and said the version, for canvas). */
  const runLine = (line: string, cwd: string, env: NodeJS.ProcessEnv): string => {
    const [cmd, ...args] = line.replace('<url of this repository>', ROOT).split(/\s+/);
    const r = spawnSync(cmd!, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status, `${line}\n${r.stderr}`).toBe(0);
    if (cmd === 'canvas') expect(r.stdout.trim()).toBe(version);
    return `${r.stdout}\n${r.stderr}`;
  };

  it.runIf(ciInstallLog === undefined)(
    'clones, installs with no warning, links, and gives the canvas command on the PATH',
    () => {
      const root = dir();
      const env = envFor(join(root, 'global'));
      const lines = installLines();
      expect(lines).toEqual(['git clone <url of this repository> canvas', 'cd canvas', 'npm ci', 'npm link --ignore-scripts', 'canvas --version']);
      let cwd = root;
      const said: string[] = [];
      for (const line of lines) {
        if (line.startsWith('cd ')) cwd = join(cwd, line.slice(3));
        else said.push(runLine(line, cwd, env));
      }
      // npm's warnings (peers that disagree, install scripts not reviewed, engines) are what a
      // newcomer meets first: none is expected.
      expect(warnings(said.join('\n'))).toEqual([]);
    },
    600_000,
  );

  it.runIf(ciInstallLog !== undefined)("under .ci/run: its clone's npm ci printed no warning; the lines after it link and give the canvas command on the PATH", () => {
    const lines = installLines();
    expect(lines).toEqual(['git clone <url of this repository> canvas', 'cd canvas', 'npm ci', 'npm link --ignore-scripts', 'canvas --version']);
    const installed = readFileSync(ciInstallLog!, 'utf8');
    // What .ci/run kept is an npm ci that ran to its end, built (prepare) and said so.
    expect(installed).toMatch(/^> task-canvas@[^ ]+ prepare$/m);
    expect(installed).toMatch(/^added [0-9]+ packages/m);
    const said = [installed];
    const env = envFor(join(dir(), 'global'));
    for (const line of lines.slice(lines.indexOf('npm ci') + 1)) said.push(runLine(line, ROOT, env));
    expect(warnings(said.join('\n'))).toEqual([]);
  });
});
