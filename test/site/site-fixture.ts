import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveWorkspace, type Workspace } from '../../src/store/workspace.js';
import { ROOT } from '../helpers/workspace.js';

let made: string | null = null;

/**
 * A fresh copy of the example workspace (made once per test process by the script `npm run demo`
 * uses, through the CLI verbs), so each test may change its copy.
 */
export function exampleWorkspace(): Workspace {
  if (made === null || !existsSync(made)) {
    made = join(mkdtempSync(join(tmpdir(), 'canvas-example-')), 'ws');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'example-workspace.js'), made], { stdio: 'ignore' });
  }
  const copy = join(mkdtempSync(join(tmpdir(), 'canvas-site-')), 'ws');
  cpSync(made, copy, { recursive: true });
  return resolveWorkspace({ workspace: copy });
}
