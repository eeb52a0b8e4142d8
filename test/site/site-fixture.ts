import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeExampleWorkspace } from '../../scripts/example-workspace.js';
import { resolveWorkspace, type Workspace } from '../../src/store/workspace.js';
import { runMain } from '../helpers/run-main.js';

let made: string | null = null;

/**
 * A fresh copy of the example workspace (made once per test process by the script `npm run demo`
 * uses, its CLI verbs run through the CLI's entry in process), so each test may change its copy.
 */
export async function exampleWorkspace(): Promise<Workspace> {
  if (made === null || !existsSync(made)) {
    const dir = join(mkdtempSync(join(tmpdir(), 'canvas-example-')), 'ws');
    await makeExampleWorkspace(dir, async (env, args) => {
      const r = await runMain(null, args, env);
      if (r.code !== 0) throw new Error(`canvas ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
      return r.stdout;
    });
    made = dir;
  }
  const copy = join(mkdtempSync(join(tmpdir(), 'canvas-site-')), 'ws');
  cpSync(made, copy, { recursive: true });
  return resolveWorkspace({ workspace: copy });
}
