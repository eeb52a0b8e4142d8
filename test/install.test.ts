// The README's install lines (its "Install" block), run as written in a fresh directory: a clone of
// this repository (its committed HEAD: the test clones the checkout, so commit what it should see),
// `npm ci`, `npm link`, then `canvas` from the PATH. npm reads its packages from the local cache
// (`npm_config_offline`, which `npm ci` of this checkout filled) and links into a prefix of the
// test's own, so nothing is fetched and nothing outside the temporary directory changes. What npm
// prints is held to the README's promise: no warning at all.
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

// A whole `npm ci` of the project (650 packages and the build): about 80 s of CPU, minutes of wall
// time on a loaded machine. It runs under CI (`CI=true`, as `.ci/run` sets), where the README's
// promise is kept for a fresh machine, and wherever CANVAS_TEST_INSTALL=1 asks for it.
const run = process.env.CI === 'true' || process.env.CANVAS_TEST_INSTALL === '1';
if (!run) console.log('test/install.test.ts: skipped (a whole npm ci): set CANVAS_TEST_INSTALL=1, or CI=true, to run it');

describe.runIf(run)("the README's install, in a fresh directory", () => {
  it('clones, installs with no warning, links, and gives the canvas command on the PATH', () => {
    const dir = realpathSync(tempDir('canvas-install-'));
    const prefix = join(dir, 'global');
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|NODE_OPTIONS$|VITEST|CANVAS_)/.test(k)) env[k] = v;
    Object.assign(env, {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
      npm_config_prefix: prefix,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...(process.env.CANVAS_COMPILE_CACHE ? { CANVAS_COMPILE_CACHE: process.env.CANVAS_COMPILE_CACHE } : {}),
    });
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const lines = installLines();
    expect(lines).toEqual(['git clone <url of this repository> canvas', 'cd canvas', 'npm ci', 'npm link --ignore-scripts', 'canvas --version']);
    let cwd = dir;
    const said: string[] = [];
    for (const line of lines) {
      const [cmd, ...args] = line.replace('<url of this repository>', ROOT).split(/\s+/);
      if (cmd === 'cd') {
        cwd = join(cwd, args[0]!);
        continue;
      }
      const r = spawnSync(cmd!, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      said.push(`${r.stdout}\n${r.stderr}`);
      if (cmd === 'canvas') expect(r.stdout.trim()).toBe(version);
    }
    // npm's warnings (peers that disagree, install scripts not reviewed, engines) are what a
    // newcomer meets first: none is expected.
    expect(said.join('\n').split('\n').filter((l) => /^npm warn/i.test(l))).toEqual([]);
  }, 600_000);
});
