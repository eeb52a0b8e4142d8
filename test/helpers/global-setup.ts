import { execFileSync } from 'node:child_process';
import { isBuilt } from '../../scripts/build-inputs.js';

/**
 * Bundle the CLI once before the tests spawn it, unless dist/cli already holds the bundles of the
 * sources as they are (`npm test` has just built everything; scripts/build-inputs.js keeps the
 * record, docs/testing.md, "Nothing built twice"). The library build is `npm run build`.
 */
export default function setup(): void {
  if (isBuilt(process.cwd(), 'cli')) return;
  execFileSync(process.execPath, ['scripts/build.js', '--cli-only'], { stdio: 'inherit' });
}
