// The arguments of `npm run bench` (bench/run.ts; docs/performance.md, "How to reproduce"), read
// strictly before anything is generated or measured: an option or a benchmark name the runner
// does not know stops it, where it used to be ignored and every full-size benchmark ran.
import { parseArgs } from 'node:util';

/** What a run was asked for. */
export interface BenchRun {
  kind: 'run';
  /** Small inputs (`--quick`, what CI runs). */
  quick: boolean;
  /** Exit 3 when a target is missed (`--strict`). */
  strict: boolean;
  /** The benchmarks `--only` names, or null for every one. */
  only: ReadonlySet<string> | null;
}

/** Nothing to run: what to print and the exit code (0 for `--help`, 2 for a usage error). */
export interface BenchExit {
  kind: 'exit';
  code: 0 | 2;
  stdout: string;
  stderr: string;
}

/** The usage `--help` prints, and a usage error after its message. */
function benchUsage(names: readonly string[]): string {
  return [
    'Usage: npm run bench -- [--quick] [--only NAME[,NAME...]] [--strict]',
    '',
    'Run each benchmark against a baseline measured in the same run, print a table and write',
    'bench/results.json (docs/performance.md).',
    '',
    'Options:',
    '  --quick         small inputs, the same code (what CI runs)',
    '  --only NAMES    only these benchmarks, comma-separated; may be given more than once',
    '  --strict        exit 3 when a target is missed (else a miss is reported, not fatal)',
    '  -h, --help      print this and exit',
    '',
    `Benchmarks (for --only): ${names.join(', ')}`,
    '',
    'Exit codes: 0 every benchmark ran, 1 one crashed or an edit was lost, 2 a usage error,',
    '3 a target missed under --strict.',
    '',
    'Example: npm run bench -- --quick --only cli-edit,cli-read',
    '',
  ].join('\n');
}

function refused(message: string, names: readonly string[]): BenchExit {
  return { kind: 'exit', code: 2, stdout: '', stderr: `bench: ${message}\n\n${benchUsage(names)}` };
}

/**
 * Read the runner's arguments with `node:util`'s strict `parseArgs`.
 *
 * @param argv - the arguments after the script (`process.argv.slice(2)`)
 * @param names - every name `--only` takes, in the runner's order
 * @returns the run asked for, or what to print and the exit code: 0 for `--help`; 2 for an
 *   unknown option, a positional argument, an option without its value, or a name `--only` does
 *   not know (the message names it and the list)
 */
export function parseBenchArgs(argv: readonly string[], names: readonly string[]): BenchRun | BenchExit {
  let values: { quick?: boolean; strict?: boolean; help?: boolean; only?: string[] };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        quick: { type: 'boolean' },
        strict: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    return refused((e as Error).message, names);
  }
  if (values.help) return { kind: 'exit', code: 0, stdout: benchUsage(names), stderr: '' };
  let only: Set<string> | null = null;
  if (values.only !== undefined) {
    only = new Set(values.only.flatMap((list) => list.split(',')));
    const unknown = [...only].filter((name) => !names.includes(name));
    if (unknown.length > 0) {
      const shown = unknown.map((name) => (name === '' ? 'an empty name' : `'${name}'`)).join(', ');
      return refused(`unknown benchmark in --only: ${shown}; the benchmarks are ${names.join(', ')}`, names);
    }
  }
  return { kind: 'run', quick: values.quick === true, strict: values.strict === true, only };
}
