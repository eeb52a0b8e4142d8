// Where `canvas build --out DIR` writes (docs/site.md, "Where the build writes"), through the
// CLI's entry in process; one refusal runs as a real process, as a user would run it. (A build
// in process and one from the bundle record different renderer versions in the manifest: the
// bundle's hash, or the sources'.)
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, type CliResult, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';
import { manifestParts } from './site-fixture.js';

/** Every entry under a directory, links shown as links (never followed). */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = `${prefix}${name}`;
      if (st.isSymbolicLink()) out[rel] = `-> ${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = '(dir)';
        walk(p, `${rel}/`);
      } else out[rel] = readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

const scratch = () => tempDir('canvas-out-');

/** A directory outside everything, with one file in it. */
function outside(): { dir: string; file: string } {
  const dir = scratch();
  writeFileSync(join(dir, 'victim.html'), 'not yours\n');
  return { dir, file: join(dir, 'victim.html') };
}

let ws: Workspace;

/** Build into `dir` (in process, or as a real process with `runCli`) and return the exit code and the error code (if any). */
async function build(
  dir: string,
  w: Workspace = ws,
  flags: string[] = [],
  run: (w: Workspace, args: string[]) => Promise<CliResult> = runMain,
): Promise<{ code: number; error: string | undefined; out: Record<string, unknown> }> {
  const r = await run(w, ['build', '--out', dir, '--json', ...flags]);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  return { code: r.code, error: (out.error as { code?: string } | undefined)?.code, out };
}

/** A site built once into a fresh directory. */
async function built(): Promise<string> {
  const dir = join(scratch(), 'site');
  expect((await build(dir)).code).toBe(0);
  return dir;
}

beforeAll(async () => {
  ws = tempWorkspace();
  for (const ledger of ['r', 's']) expect((await createCanvas(ws, { ledger, why: 'a site', author: AUTHOR })).outcome).toBe('applied');
});

describe('canvas build --out: where the build writes', () => {
  it('makes an absent directory, takes an empty one, and builds again into its own', async () => {
    const absent = join(scratch(), 'a', 'site');
    expect((await build(absent)).code).toBe(0);
    expect(Object.keys(listing(absent))).toEqual(['.canvas-build.json', 'index.html', 'r', 'r/comment.md', 'r/index.html', 'r/prompt.txt', 's', 's/comment.md', 's/index.html', 's/prompt.txt']);
    const empty = scratch();
    expect((await build(empty)).code).toBe(0);
    expect(listing(empty)).toEqual(listing(absent));
    expect((await build(empty)).out).toMatchObject({ built: [], unchanged: ['r', 's'] });
  });

  it('refuses a directory it did not make, leaving its index.html as it was (BAD_OUT_DIR)', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'index.html'), 'my own page\n');
    const before = listing(dir);
    expect(await build(dir)).toMatchObject({ code: 2, error: 'BAD_OUT_DIR' });
    expect(listing(dir)).toEqual(before);
    // A manifest that is not the build's does not make the directory the build's.
    for (const manifest of ['{"hello":1}', 'not json', '{"renderer":"x","entries":{"../x":{"files":{}}}}', '{"renderer":"x","entries":{"r":{"files":{"../../victim.html":"0"}}}}']) {
      writeFileSync(join(dir, '.canvas-build.json'), manifest);
      const seen = listing(dir);
      expect(await build(dir), manifest).toMatchObject({ code: 2, error: 'BAD_OUT_DIR' });
      expect(listing(dir)).toEqual(seen);
    }
  });

  it('refuses a file as DIR, or a path through a file (BAD_OUT_DIR, not INTERNAL)', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'file'), 'a file\n');
    expect(await build(join(dir, 'file'), ws, [], runCli)).toMatchObject({ code: 2, error: 'BAD_OUT_DIR' });
    expect(await build(join(dir, 'file', 'site'))).toMatchObject({ code: 2, error: 'BAD_OUT_DIR' });
    expect(listing(dir)).toEqual({ file: 'a file\n' });
  });

  it('never follows a link inside DIR: a link at any path it writes or verifies is refused, the outside untouched', async () => {
    // Each plant, and the exit code of a build that trusts its manifest: the index and the
    // manifest are judged on every build; an unchanged canvas's paths are not written, so the
    // link there is left alone, and --verify-output judges them too.
    const plants: Array<[string, 0 | 2, (dir: string, o: { dir: string; file: string }) => void]> = [
      [
        'a canvas folder linked outside',
        0,
        (dir, o) => {
          rmSync(join(dir, 'r'), { recursive: true });
          symlinkSync(o.dir, join(dir, 'r'));
        },
      ],
      [
        'a page linked to a file outside',
        0,
        (dir, o) => {
          rmSync(join(dir, 'r', 'index.html'));
          symlinkSync(o.file, join(dir, 'r', 'index.html'));
        },
      ],
      [
        'the index linked to a file outside',
        2,
        (dir, o) => {
          rmSync(join(dir, 'index.html'));
          symlinkSync(o.file, join(dir, 'index.html'));
        },
      ],
      [
        'the manifest linked to a file outside',
        2,
        (dir, o) => {
          writeFileSync(o.file, readFileSync(join(dir, '.canvas-build.json')));
          rmSync(join(dir, '.canvas-build.json'));
          symlinkSync(o.file, join(dir, '.canvas-build.json'));
        },
      ],
      [
        'a link to nothing where a page goes',
        0,
        (dir, o) => {
          rmSync(join(dir, 's', 'prompt.txt'));
          symlinkSync(join(o.dir, 'later.txt'), join(dir, 's', 'prompt.txt'));
        },
      ],
    ];
    for (const [name, trusted, plant] of plants) {
      const dir = await built();
      const o = outside();
      plant(dir, o);
      const before = { site: listing(dir), outside: listing(o.dir) };
      expect(await build(dir), name).toMatchObject(trusted === 2 ? { code: 2, error: 'BAD_OUT_DIR' } : { code: 0, out: { built: [], unchanged: ['r', 's'] } });
      expect(listing(dir), name).toEqual(before.site);
      expect(listing(o.dir), name).toEqual(before.outside);
      expect(await build(dir, ws, ['--verify-output']), name).toMatchObject({ code: 2, error: 'BAD_OUT_DIR' });
      expect(listing(dir), name).toEqual(before.site);
      expect(listing(o.dir), name).toEqual(before.outside);
    }
  });

  it('refuses a file where it needs a folder, and a folder where it needs a file (BAD_OUT_DIR, not INTERNAL)', async () => {
    const a = await built();
    rmSync(join(a, 'r'), { recursive: true });
    writeFileSync(join(a, 'r'), 'a file\n');
    const b = await built();
    rmSync(join(b, 'index.html'));
    mkdirSync(join(b, 'index.html'));
    // The index is judged on every build; an unchanged canvas's folder under --verify-output.
    for (const [dir, flags] of [
      [a, ['--verify-output']],
      [b, []],
    ] as const) {
      const before = listing(dir);
      expect(await build(dir, ws, [...flags])).toMatchObject({ code: 2, error: 'BAD_OUT_DIR' });
      expect(listing(dir)).toEqual(before);
    }
  });

  it('refuses DIR inside the canvas repository, by any path (OUTPUT_IN_REPOSITORY)', async () => {
    const links = scratch();
    symlinkSync(ws.repo, join(links, 'repo'));
    const before = repoState(ws);
    for (const dir of [join(ws.repo, 'site'), ws.repo, join(ws.repo, '.git', 'site'), join(links, 'repo', 'site')]) {
      expect(await build(dir), dir).toMatchObject({ code: 2, error: 'OUTPUT_IN_REPOSITORY' });
      expect(repoState(ws)).toEqual(before);
    }
    expect(existsSync(join(ws.repo, '.git', 'site'))).toBe(false);
  });

  it('removes the pages of canvases that no longer exist: only the files its manifest lists', async () => {
    const dir = await built();
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    mkdirSync(join(dir, 'kept'));
    // Another workspace with only canvas r builds into the same directory: s is gone.
    const other = tempWorkspace();
    expect((await createCanvas(other, { ledger: 'r', why: 'only r', author: AUTHOR })).outcome).toBe('applied');
    const r = await build(dir, other);
    expect(r.code).toBe(0);
    expect(Object.keys(listing(dir))).toEqual(['.canvas-build.json', 'index.html', 'kept', 'notes.txt', 'r', 'r/comment.md', 'r/index.html', 'r/prompt.txt']);
    expect(Object.keys(manifestParts(readFileSync(join(dir, '.canvas-build.json'), 'utf8')).manifest.entries)).toEqual(['r']);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).not.toContain('s/index.html');
    // A file the build did not make in a gone canvas's folder stays, and so does the folder.
    expect((await build(dir)).code).toBe(0);
    writeFileSync(join(dir, 's', 'mine.txt'), 'mine\n');
    expect((await build(dir, other)).code).toBe(0);
    expect(Object.keys(listing(dir)).filter((p) => p.startsWith('s'))).toEqual(['s', 's/mine.txt']);
  });
});
