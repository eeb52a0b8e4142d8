// The main job: make the example workspace (when absent) through the CLI verbs, then build its
// site into site/ and say where it is.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = join(root, 'examples', 'workspace');
const out = join(root, 'site');
if (!existsSync(join(workspace, 'state', 'canvas'))) {
  console.log(`making the example workspace in ${workspace}`);
  execFileSync(process.execPath, [join(root, 'scripts', 'example-workspace.js'), workspace], { stdio: ['ignore', 'ignore', 'inherit'] });
}
execFileSync(process.execPath, [join(root, 'bin', 'canvas.js'), 'build', '--workspace', workspace, '--out', out], { stdio: 'inherit' });
console.log(`open ${join(out, 'index.html')}`);
