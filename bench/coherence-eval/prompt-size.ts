// What one check costs, per canvas of a workspace: `node --import tsx
// bench/coherence-eval/prompt-size.ts DIR [--dump OUT]`. Runs `canvas check --dry-run` on every
// canvas against a stand-in that reports no contradiction, and prints the characters sent and the
// stand-in's token estimate (it has no tokenizer: about four characters a token). `--dump OUT`
// writes each request's messages as JSON, to count them with a real tokenizer.
// docs/coherence.md "Cost".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCoherence } from '../../src/check/check-coherence.js';
import { listCanvases } from '../../src/store/repo/list-canvases.js';
import { resolveWorkspace } from '../../src/store/repo/workspace.js';
import { startStandIn } from './stand-in.js';

const [dir, flag, out] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: prompt-size.ts WORKSPACE [--dump OUT]\n');
  process.exit(2);
}
const ws = resolveWorkspace({ workspace: dir });
const standIn = await startStandIn(() => ({ content: { contradictions: [] } }));
if (flag === '--dump' && out) mkdirSync(out, { recursive: true });
try {
  let chars = 0;
  let tokens = 0;
  const canvases = await listCanvases(ws);
  for (const c of canvases) {
    const before = standIn.requests.length;
    const r = await checkCoherence(ws, { ledger: c.ledger, dryRun: true, model: { url: standIn.url, model: 'stand-in' } });
    const sent = standIn.requests.slice(before);
    if (flag === '--dump' && out) {
      for (const [i, s] of sent.entries()) writeFileSync(join(out, `${c.ledger}.${i}.json`), JSON.stringify(s.body.messages));
    }
    chars += r.usage.promptChars;
    tokens += r.usage.promptTokens ?? 0;
    process.stdout.write(`${c.ledger.padEnd(28)} ${String(r.usage.promptChars).padStart(6)} chars  ~${String(r.usage.promptTokens ?? 0).padStart(5)} tokens${r.asked ? '' : '  (not sent)'}\n`);
  }
  process.stdout.write(`${canvases.length} canvases: ${chars} chars, ~${tokens} tokens (stand-in estimate), ${Math.round(chars / Math.max(1, canvases.length))} chars a check\n`);
} finally {
  await standIn.close();
}
