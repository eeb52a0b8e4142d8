import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/workspace.js';
import { pushedCanvases, siteTree } from './site-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

// docs/ci.md's two jobs, run as written against a bare repository with canvases in it: the
// GitHub Actions workflow step by step (its `run:` commands in bash, the GitHub-only actions stood
// in for), and the generic job's script. Each must leave the site a workspace builds.

const DOC = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');

/** The fenced block of `lang` under the heading `heading`. */
function block(heading: string, lang: string): string {
  const section = DOC.slice(DOC.indexOf(`\n## ${heading}\n`));
  const m = section.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``));
  if (!m) throw new Error(`docs/ci.md has no ${lang} block under "${heading}"`);
  return m[1]!;
}

/** The build job's steps, in order: each an action it uses (with its `with:` lines) or a command it runs. */
function buildSteps(yaml: string): Array<{ uses: string; with: Record<string, string> } | { run: string }> {
  const job = yaml.slice(yaml.indexOf('\n  build:\n'), yaml.indexOf('\n  deploy:\n'));
  const steps: Array<{ uses: string; with: Record<string, string> } | { run: string }> = [];
  for (const step of job.split('\n      - ').slice(1)) {
    const run = step.match(/^run: (.+)$/m);
    const uses = step.match(/^(?:\s*)uses: (\S+)$/m);
    if (run) steps.push({ run: run[1]! });
    else if (uses) steps.push({ uses: uses[1]!, with: Object.fromEntries([...step.matchAll(/^ {10}(\S+): (.+)$/gm)].map((w) => [w[1]!, w[2]!])) });
    else throw new Error(`a step neither runs nor uses: ${step}`);
  }
  return steps;
}

/** A bare repository two canvases were pushed to, the site a workspace builds of it, and an `npx` that runs this checkout's CLI. */
async function fixture(): Promise<{ dir: string; bare: string; main: string; site: Record<string, string>; env: NodeJS.ProcessEnv }> {
  const dir = tempDir('canvas-ci-doc-');
  const { bare, ws } = await pushedCanvases(dir, 'ci-a', 'ci-b');
  // `npm install -g` of the package's tarball, stood in for: it puts this checkout's `canvas` on
  // the PATH, and takes nothing but the pinned tarball.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh\n[ "$1 $2" = "install -g" ] || exit 9\ncase "$3" in *task-canvas-${version}.tgz) ;; *) exit 9;; esac\nln -sf '${join(ROOT, 'bin', 'canvas.js')}' '${join(bin, 'canvas')}'\n`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' };
  delete env.CANVAS_WORKSPACE;
  delete env.NODE_OPTIONS;
  const main = execFileSync('git', ['-C', bare, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim();
  // What the same CLI builds in the workspace (its build record names the renderer that built it).
  execFileSync(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'build', '--out', join(dir, 'expected')], { env: { ...env, CANVAS_WORKSPACE: ws.root }, stdio: 'ignore' });
  return { dir, bare, main, site: siteTree(join(dir, 'expected')), env };
}

const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv) => execFileSync('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('docs/ci.md', () => {
  it('pins the version of the package it is in', () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const pins = [...DOC.matchAll(/task-canvas-(\S+?)\.tgz/g)].map((m) => m[1]);
    expect(pins.length).toBeGreaterThanOrEqual(3);
    expect(new Set(pins)).toEqual(new Set([version]));
  });

  it("the GitHub Actions workflow's build job, its commands run locally, builds the pushed commit's site as a workspace does, and hands it to the Pages actions", async () => {
    const f = await fixture();
    const yaml = block('GitHub Actions and GitHub Pages', 'yaml');
    const workspace = join(f.dir, 'runner', 'work');
    const env = { ...f.env, GITHUB_SHA: f.main, GITHUB_WORKSPACE: workspace };
    const used: string[] = [];
    let artifact: string | null = null;
    for (const step of buildSteps(yaml)) {
      if ('run' in step) {
        bash(step.run, workspace, env);
        continue;
      }
      const action = step.uses.replace(/@v\d+$/, '');
      used.push(action);
      if (action === 'actions/checkout') {
        // The checkout: the repository cloned into the job's workspace, its whole history when asked.
        expect(step.with['fetch-depth']).toBe('0');
        execFileSync('git', ['clone', '-q', '--branch', 'main', f.bare, workspace]);
      } else if (action === 'actions/setup-node') {
        expect(step.with['node-version']).toBe('20');
      } else if (action === 'actions/upload-pages-artifact') {
        // The action tars the directory it is given: it must hold the site.
        artifact = join(workspace, step.with.path!);
        execFileSync('tar', ['-cf', join(f.dir, 'artifact.tar'), '-C', artifact, '.']);
      } else throw new Error(`a step uses ${step.uses}, which this test has no stand-in for`);
    }
    expect(used).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-pages-artifact']);
    expect(artifact).not.toBeNull();
    expect(siteTree(artifact!)).toEqual(f.site);
    expect(existsSync(join(f.dir, 'artifact.tar'))).toBe(true);
    // The deploy job publishes that artifact, and nothing else.
    expect(yaml.slice(yaml.indexOf('\n  deploy:\n'))).toMatch(/needs: build[\s\S]*uses: actions\/deploy-pages@v\d+\n$/);
    expect(yaml).toMatch(/permissions:\n {2}contents: read\n {2}pages: write\n {2}id-token: write\n/);
  });

  it("the generic job's script builds the remote's latest site, or the commit CANVAS_AT names, and its archive", async () => {
    const f = await fixture();
    const script = block('Any other CI', 'sh');
    const latest = join(f.dir, 'job-latest');
    mkdirSync(latest);
    bash(script, latest, { ...f.env, CANVAS_REMOTE: f.bare });
    expect(siteTree(join(latest, 'site'))).toEqual(f.site);
    expect(execFileSync('tar', ['-tzf', join(latest, 'site.tar.gz')], { encoding: 'utf8' })).toContain('./index.html');
    // At the commit before ci-b: the site of that revision.
    const older = execFileSync('git', ['-C', f.bare, 'rev-parse', 'refs/heads/main^'], { encoding: 'utf8' }).trim();
    const at = join(f.dir, 'job-at');
    mkdirSync(at);
    bash(script, at, { ...f.env, CANVAS_REMOTE: f.bare, CANVAS_AT: older });
    expect(existsSync(join(at, 'site', 'ci-a', 'index.html'))).toBe(true);
    expect(existsSync(join(at, 'site', 'ci-b'))).toBe(false);
  });
});
