import { readPackageFile } from '../store/index.js';

/**
 * The live tab's script, as the build bundled it from `src/serve/live/` (docs/serve.md, "The
 * pages"): one ES module, served as `/_canvas/live.js`.
 *
 * @returns the script's text
 * @throws Error naming the missing bundle and the command that makes it, when the package was not built
 */
export async function liveScript(): Promise<string> {
  try {
    return await readPackageFile('dist/serve/live.js');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new Error("the live tab's script dist/serve/live.js is not built: run npm run build");
  }
}
