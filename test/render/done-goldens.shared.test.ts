// The done artifact (docs/projections.md, "The done artifact") of the example workspace's canvases
// and of the imported MADR corpus, as goldens in snapshots/done/: its Markdown and its JSON, the
// JSON validated against schema/done.schema.json with Ajv. A missing golden is written; UPDATE=1
// rewrites them all.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { doneArtifact } from '../../src/render/done/done-artifact.js';
import { renderDone } from '../../src/render/done/render-done.js';
import { listCanvases } from '../../src/store/repo/list-canvases.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { MADR_CORPUS } from '../helpers/corpus.js';
import { importMadrRecords } from '../helpers/import-madr.js';
import { ROOT, tempWorkspace } from '../helpers/workspace.js';
import { exampleWorkspace } from '../site/site-fixture.js';
import { SNAPSHOTS } from './golden-cases.js';

const UPDATE = process.env.UPDATE === '1';
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'done.schema.json'), 'utf8')));

function golden(path: string, actual: string): void {
  if (UPDATE || !existsSync(path)) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(actual, `${path} differs from its golden; review the diff, then UPDATE=1 if it is right`).toBe(readFileSync(path, 'utf8'));
}

/** Every canvas of a workspace: its artifact validates, and its Markdown and JSON match the goldens in `dir`. */
async function checkAll(ws: Workspace, dir: string): Promise<Snapshot[]> {
  const snapshots: Snapshot[] = [];
  for (const { ledger } of await listCanvases(ws)) {
    const snapshot = await readSnapshot(ws, { ledger });
    const artifact = doneArtifact(snapshot);
    expect(validate(artifact), `${ledger}: ${JSON.stringify(validate.errors)}`).toBe(true);
    golden(join(dir, `${ledger}.md`), renderDone(snapshot));
    golden(join(dir, `${ledger}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    snapshots.push(snapshot);
  }
  return snapshots;
}

describe('the done artifact: goldens and its schema', () => {
  it("of the example workspace's canvases", async () => {
    const ws = await exampleWorkspace();
    const snapshots = await checkAll(ws, join(SNAPSHOTS, 'done', 'example'));
    expect(snapshots.length).toBeGreaterThan(1);
    for (const s of snapshots) {
      const md = renderDone(s);
      const a = doneArtifact(s);
      // Open questions are said at the top, before What.
      if (a.openQuestions > 0) expect(md.indexOf('open question')).toBeLessThan(md.indexOf('**What**'));
      else expect(md.slice(0, md.indexOf('**What**'))).not.toContain('open question');
      expect(a.verification.unverified).toHaveLength(a.openQuestions);
    }
  });

  it.skipIf(MADR_CORPUS === null)('of the imported MADR corpus', async () => {
    const ws = tempWorkspace();
    const records = await importMadrRecords(ws);
    expect(records.length).toBeGreaterThan(10);
    const snapshots = await checkAll(ws, join(SNAPSHOTS, 'done', 'madr'));
    expect(snapshots).toHaveLength(records.length);
    // The records link out (MADR cites its sources): the links are Evidence and Links alike.
    expect(snapshots.some((s) => doneArtifact(s).links.length > 0)).toBe(true);
  });

  it('the schema refuses what the artifact never holds', () => {
    const bad = { ledger: 'x', revision: 'nope', openQuestions: -1, ending: null, what: { problem: null, settled: [] }, why: [], evidence: [], verification: { verified: [], unverified: [] }, links: [] };
    expect(validate(bad)).toBe(false);
    expect(validate({ ...bad, revision: 'a'.repeat(40), openQuestions: 0 })).toBe(true);
    expect(validate({ ...bad, revision: 'a'.repeat(40), openQuestions: 0, extra: 1 })).toBe(false);
  });
});
