// The checks `npm test` runs before the tests, at the same time rather than one after another
// (docs/testing.md, "The checks at once"): each is the package.json script of its name, run as
// npm would run it (through sh, node_modules/.bin first on the PATH). What a check prints is held
// and printed whole when it ends, under its name, so outputs do not interleave; a check that
// fails prints all it printed, and the run exits 1 once every check has ended, naming the ones
// that failed.
//
//   node scripts/checks.js build-if-stale typecheck lint unused duplicates
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const ROOT = process.cwd();
const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const names = process.argv.slice(2);
for (const name of names) {
  if (!scripts[name]) {
    process.stderr.write(`checks: package.json has no script "${name}"\n`);
    process.exit(2);
  }
}
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH}` };

/** Run one script; resolves with its exit code (1 when a signal ended it) once it has printed. */
function check(name) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', scripts[name]], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      const status = code ?? 1;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.stdout.write(`\n> ${name}: ${scripts[name]} (${status === 0 ? 'ok' : `exit ${status}`}, ${seconds.toFixed(1)} s)\n`);
      process.stdout.write(Buffer.concat(out));
      resolve(status);
    });
  });
}

const codes = await Promise.all(names.map(check));
const failed = names.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) {
  process.stderr.write(`\nchecks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
