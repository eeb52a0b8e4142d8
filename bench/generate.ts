// Generate workspaces into the benchmarks' cache (bench/lib/generate-workspace.ts), one after the
// other, and say each when it is there:
//
//   node --import tsx bench/generate.ts '<JSON array of WorkspaceSpec>'
//
// The runner starts it beside itself so that a run's workspaces are generated on both cores
// before anything is measured (bench/run.ts; docs/performance.md, "The quick run").
import { join } from 'node:path';
import { generateWorkspace, type WorkspaceSpec } from './lib/generate-workspace.js';

const specs = JSON.parse(process.argv[2] ?? '[]') as WorkspaceSpec[];
for (const spec of specs) {
  const gen = await generateWorkspace(spec, join(import.meta.dirname, '..'), (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${JSON.stringify({ seconds: gen.seconds, cached: gen.cached })}\n`);
}
