import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/workspace.js';

/** Every file of the bundled CLI that loading `dist/cli/canvas.js` loads (static imports only). */
function staticallyLoaded(): Map<string, string> {
  const dir = join(ROOT, 'dist', 'cli');
  const seen = new Map<string, string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    const code = readFileSync(join(dir, file), 'utf8');
    seen.set(file, code);
    for (const m of code.matchAll(/(?:from|import) "\.\/([^"]+)"/g)) visit(m[1]!);
  };
  visit('canvas.js');
  return seen;
}

describe('what every command loads before it runs (canvas read, history and log load nothing more)', () => {
  it('neither the XML parser nor the write path nor a renderer', () => {
    const files = staticallyLoaded();
    expect(files.size).toBeGreaterThan(1);
    for (const [file, code] of files) {
      // The bundle names each module it holds in a comment: `// node_modules/...` or `// src/...`.
      expect(code, file).not.toMatch(/^\/\/ node_modules\/(@rgrove\/parse-xml|xast-util-from-xml|hast-util-to-html|mdast-util-to-markdown)\//m);
      expect(code, file).not.toMatch(/^\/\/ src\/(model\/parse-canvas|store\/apply-edit|store\/read-snapshot|render\/)/m);
    }
  });
});
