import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../bench/coherence-eval/corpus.js';
import { formatEval, runEval, scriptedStandIn } from '../../bench/coherence-eval/run.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';

describe('the coherence evaluation, against its scripted stand-in', () => {
  it('has at least 20 valid canvases: planted, none and near-misses, every expected id a node', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(CORPUS.map((c) => c.kind))).toEqual(new Set(['planted', 'none', 'near-miss']));
    expect(CORPUS.some((c) => c.expected.length === 2)).toBe(true);
    for (const c of CORPUS) {
      const ledger = `eval-${c.name}`;
      const xml = serializeCanvas({ ledger, children: c.nodes } as Parameters<typeof serializeCanvas>[0]);
      expect(serializeCanvas(parseCanvas(xml, ledger)), c.name).toBe(xml);
      for (const ids of [...c.expected, ...(c.standIn ?? [])]) for (const id of ids) expect(xml, `${c.name} ${id}`).toContain(` id="${id}"`);
    }
  });

  it('computes precision and recall per case and overall (the script misses one and raises one false alarm)', async () => {
    const s = await scriptedStandIn();
    try {
      const r = await runEval({ url: s.url, model: 'scripted-stand-in' });
      const planted = CORPUS.reduce((n, c) => n + c.expected.length, 0);
      expect(r.errors).toBe(0);
      expect([r.truePositives, r.falsePositives, r.falseNegatives]).toEqual([planted - 1, 1, 1]);
      expect(r.precision).toBeCloseTo((planted - 1) / planted);
      expect(r.recall).toBeCloseTo((planted - 1) / planted);
      const byName = new Map(r.cases.map((c) => [c.name, c]));
      expect(byName.get('two-contradictions')).toMatchObject({ truePositives: 1, falseNegatives: 1, recall: 0.5, precision: 1 });
      expect(byName.get('refinement')).toMatchObject({ falsePositives: 1, precision: 0, recall: null });
      expect(byName.get('consistent')).toMatchObject({ precision: null, recall: null });
      expect(formatEval(r)).toMatch(/^overall: precision 92% \(11\/12\), recall 92% \(11\/12\), 0 case\(s\) failed$/m);
    } finally {
      await s.close();
    }
  });
});
