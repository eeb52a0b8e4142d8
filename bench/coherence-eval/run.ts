// The coherence evaluation: `node --import tsx bench/coherence-eval/run.ts [--stand-in] [--json]`.
// Sends every canvas of the corpus to the model that CANVAS_MODEL_URL, CANVAS_MODEL and
// CANVAS_MODEL_API_KEY name (or, with --stand-in, to a scripted stand-in on 127.0.0.1), through the
// checker's own prompt and validation, and prints precision and recall per case and overall. Nothing
// is written anywhere: the canvases never enter a store. docs/coherence.md "Measuring a model".
import { fileURLToPath } from 'node:url';
import { askForContradictions } from '../../src/check/ask-for-contradictions.js';
import { type ModelConfig, modelConfigFromEnv } from '../../src/check/model-config.js';
import { CanvasError } from '../../src/model/canvas-error.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import { CORPUS, type EvalCase } from './corpus.js';
import { startStandIn } from './stand-in.js';

/** One case's result. */
export interface CaseResult {
  name: string;
  kind: EvalCase['kind'];
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** TP / (TP + FP); null when nothing was reported. */
  precision: number | null;
  /** TP / (TP + FN); null when nothing was expected. */
  recall: number | null;
  /** The error code when the model failed or its reply was refused (every expected one counts as missed). */
  error: string | null;
  promptChars: number;
}

/** The whole run. */
export interface EvalResult {
  model: string;
  cases: CaseResult[];
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
  errors: number;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/** A reported contradiction matches an expected one when it names every node of it. */
function score(expected: readonly string[][], found: readonly string[][]): { tp: number; fp: number; fn: number } {
  const open = expected.map((e) => [...e]);
  let tp = 0;
  let fp = 0;
  for (const f of found) {
    const at = open.findIndex((e) => e.every((id) => f.includes(id)));
    if (at >= 0) {
      tp += 1;
      open.splice(at, 1);
    } else {
      fp += 1;
    }
  }
  return { tp, fp, fn: open.length };
}

/** The canvas `canvas read` would print for a case (a made-up revision: nothing is stored). */
function readOf(c: EvalCase): { ledger: string; revision: string; xml: string } {
  const ledger = `eval-${c.name}`;
  return { ledger, revision: '0'.repeat(40), xml: serializeCanvas({ ledger, children: c.nodes } as Parameters<typeof serializeCanvas>[0]) };
}

/**
 * Run the corpus against a model.
 *
 * @param config - the model
 * @param corpus - the cases (default the whole corpus)
 */
export async function runEval(config: ModelConfig, corpus: readonly EvalCase[] = CORPUS, options: { timeoutMs?: number; budgetMs?: number } = {}): Promise<EvalResult> {
  const cases: CaseResult[] = [];
  for (const c of corpus) {
    let found: string[][] = [];
    let error: string | null = null;
    let promptChars = 0;
    try {
      const asked = await askForContradictions(readOf(c), config, options);
      promptChars = asked.promptChars;
      found = asked.parsed.contradictions.map((x) => x.nodes);
    } catch (e) {
      if (!(e instanceof CanvasError)) throw e;
      error = e.code;
    }
    const { tp, fp, fn } = score(c.expected, found);
    cases.push({ name: c.name, kind: c.kind, truePositives: tp, falsePositives: fp, falseNegatives: fn, precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), error, promptChars });
  }
  const sum = (k: 'truePositives' | 'falsePositives' | 'falseNegatives') => cases.reduce((n, r) => n + r[k], 0);
  const tp = sum('truePositives');
  const fp = sum('falsePositives');
  const fn = sum('falseNegatives');
  return { model: config.model, cases, truePositives: tp, falsePositives: fp, falseNegatives: fn, precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), errors: cases.filter((r) => r.error).length };
}

/**
 * A stand-in that answers each case from the corpus's script, found by the ledger in the request.
 *
 * @returns the running stand-in (close it when done)
 */
export function scriptedStandIn(corpus: readonly EvalCase[] = CORPUS) {
  return startStandIn((req) => {
    const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
    const ledger = /<canvas ledger="eval-([^"]+)"/.exec(user)?.[1];
    const c = corpus.find((x) => x.name === ledger);
    if (!c) return { status: 400 };
    return { content: { contradictions: (c.standIn ?? c.expected).map((nodes) => ({ nodes, question: `Which holds: ${nodes.join(' or ')}?`, evidence: 'scripted' })) } };
  });
}

const pct = (x: number | null): string => (x === null ? '   -' : `${Math.round(x * 100)}%`.padStart(4));

/** The table the command prints. */
export function formatEval(r: EvalResult): string {
  const lines = [`model ${r.model}: ${r.cases.length} cases`, `${'case'.padEnd(28)} ${'kind'.padEnd(9)}  TP  FP  FN  prec  rec  chars`];
  for (const c of r.cases) {
    lines.push(
      `${c.name.padEnd(28)} ${c.kind.padEnd(9)} ${String(c.truePositives).padStart(3)} ${String(c.falsePositives).padStart(3)} ${String(c.falseNegatives).padStart(3)}  ${pct(c.precision)}  ${pct(c.recall)}  ${String(c.promptChars).padStart(5)}${c.error ? `  ${c.error}` : ''}`,
    );
  }
  lines.push(
    `overall: precision ${pct(r.precision).trim()} (${r.truePositives}/${r.truePositives + r.falsePositives}), recall ${pct(r.recall).trim()} (${r.truePositives}/${r.truePositives + r.falseNegatives}), ${r.errors} case(s) failed`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  let close = async () => {};
  let config: ModelConfig;
  if (args.includes('--stand-in')) {
    const s = await scriptedStandIn();
    close = s.close;
    config = { url: s.url, model: 'scripted-stand-in' };
  } else {
    config = modelConfigFromEnv();
  }
  try {
    const result = await runEval(config);
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : formatEval(result));
  } finally {
    await close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof CanvasError ? `${e.code}: ${e.message}\nhint: ${e.hint}` : String(e)}\n`);
    process.exitCode = 1;
  });
}
