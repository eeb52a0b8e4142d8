import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../../model/package-name.js';

const cache = new Map<string, string>();

/** The package root: the nearest folder upwards holding this package's `package.json`. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // not ours; keep looking upwards
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the canvas package root above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/**
 * Read a file of `templates/` (the page stylesheet), found from the package root so it works
 * from `src/` under the tests, from `dist/lib` and from the bundled CLI. Read once per process.
 *
 * @param name - the file name inside `templates/`, e.g. `page.css`
 * @returns its text
 */
export async function readTemplate(name: string): Promise<string> {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const text = await readFile(join(packageRoot(), 'templates', name), 'utf8');
  cache.set(name, text);
  return text;
}
