import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../../model/package-name.js';

/**
 * `package.json`'s version, written into the CLI's bundle by its build (esbuild's `define` in
 * `scripts/build.js`); not defined when this module runs from `src/` (the tests) or `dist/lib`.
 */
declare const CANVAS_VERSION: string | undefined;

let read: string | undefined;

/**
 * The package's version, as `package.json` gives it (e.g. `0.1.0`): what `canvas --version`
 * prints and what the MCP server reports in its handshake (docs/cli.md, "Start-up and the
 * compile cache"). In the CLI's bundle it is a constant of the build, so a run reads no file;
 * anywhere else it is read once per process from the nearest `package.json` named `task-canvas` above
 * this module.
 *
 * @returns the version string
 * @throws Error when no such `package.json` is found (a broken install)
 */
export function readPackageVersion(): string {
  if (typeof CANVAS_VERSION === 'string') return CANVAS_VERSION;
  if (read !== undefined) return read;
  const here = fileURLToPath(import.meta.url);
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') {
        read = manifest.version;
        return read;
      }
    } catch {
      // No package.json here, or not one that parses: keep looking upwards.
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${here}`);
  }
}
