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
 * Read a file of the package that is served as it is (the live tab's script and stylesheet of
 * `canvas serve`, the canvas view's script of the MCP server), found from the package root so it works from `src/` under the tests, from
 * `dist/lib` and from the bundled CLI. Read once per process. The renderers read no file: what a
 * page inlines is compiled in (src/render/html/templates.ts).
 *
 * @param path - the file's path inside the package, e.g. `templates/serve/live.css`
 * @returns its text
 * @throws the file system's error (ENOENT when the package has no such file)
 */
export async function readPackageFile(path: string): Promise<string> {
  const hit = cache.get(path);
  if (hit !== undefined) return hit;
  const text = await readFile(join(packageRoot(), path), 'utf8');
  cache.set(path, text);
  return text;
}
