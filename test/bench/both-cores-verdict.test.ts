// The both-cores row's verdict (bench/lib/both-cores-verdict.ts): judged in a full run on two
// cores or more, named but not judged in a quick run, whatever the ratio.
import { describe, expect, it } from 'vitest';
import { bothCoresVerdict } from '../../bench/lib/both-cores-verdict.js';

describe('bothCoresVerdict', () => {
  it.each([
    [false, 2, 1.79, true],
    [false, 2, 1.7, true],
    [false, 2, 1.25, false],
    [false, 4, 0.85, false],
    [false, 1, 1.79, null],
    [true, 2, 0.85, null],
    [true, 2, 1.79, null],
    [true, 1, 0.85, null],
  ])('quick %s, %i cores, x%f: %s', (quick, cpus, speedup, pass) => {
    expect(bothCoresVerdict(quick, cpus, speedup).pass).toBe(pass);
  });

  it('names the full-size judgement in a quick run, and the plain target in a full one', () => {
    expect(bothCoresVerdict(true, 2, 0.85).target).toBe('speed-up >= 1.7 on two cores, judged at full size (1,000 canvases)');
    expect(bothCoresVerdict(false, 2, 0.85).target).toBe('speed-up >= 1.7 on two cores');
  });
});
