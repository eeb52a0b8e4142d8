import { execFileSync } from 'node:child_process';

/** Bundle the CLI once before the tests spawn it (fast; the library build is `npm run build`). */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.js', '--cli-only'], { stdio: 'inherit' });
}
