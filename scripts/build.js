// Build: the library with its type declarations (tsc), and the CLI bundled into one ESM entry
// with esbuild (a single file starts faster; heavy modules stay lazy chunks or external).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const cliOnly = process.argv.includes('--cli-only');
if (!cliOnly) {
  rmSync('dist', { recursive: true, force: true });
  execFileSync('node_modules/.bin/tsc', ['-p', 'tsconfig.build.json'], { stdio: 'inherit' });
} else {
  rmSync('dist/cli', { recursive: true, force: true });
}
await build({
  entryPoints: { canvas: 'src/cli/canvas.ts' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['jsdom', 'dompurify', '@modelcontextprotocol/sdk', 'playwright-core', 'zod'],
  banner: { js: "import { createRequire as __canvasCreateRequire } from 'node:module'; const require = __canvasCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
