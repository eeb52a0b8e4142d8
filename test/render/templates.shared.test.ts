// What a page and the index inline is compiled into src/render/html/templates.ts by the build
// (scripts/templates.js), so the renderers read no file (docs/projections.md, "The page"). The
// module must say what templates/ says: an edit of a template without a build fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/render/html/templates.js';
import { ROOT } from '../helpers/workspace.js';

const FILES = { pageCss: 'page.css', indexCss: 'index.css', indexScript: 'index.js' } as const;

describe('the templates compiled into the render module', () => {
  it('are the files of templates/, byte for byte (after an edit there, run npm run build)', () => {
    expect(Object.keys(TEMPLATES).sort()).toEqual(Object.keys(FILES).sort());
    for (const [key, file] of Object.entries(FILES)) {
      expect(TEMPLATES[key as keyof typeof FILES], `templates/${file}`).toBe(readFileSync(join(ROOT, 'templates', file), 'utf8'));
    }
  });

  it('no renderer reads a file: nothing under src/render/ imports the file system', () => {
    const dir = join(ROOT, 'src', 'render');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    const readers = files.filter((f) => /['"]node:fs(\/promises)?['"]|['"]fs['"]/.test(readFileSync(join(dir, f), 'utf8')));
    expect(readers).toEqual([]);
  });
});
