import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { firstBadUtf8 } from '../../model/decode-utf8-strict.js';
import { INPUT_LIMIT } from '../../model/size-limits.js';
import type { Workspace } from './workspace.js';

/** What `canvas open` reads from a ledger row (docs/store.md, "The ledger row"). */
export interface LedgerRowFields {
  /** The row file's path, `<workspace>/state/ledger/<ledger>.json`. */
  path: string;
  /** The problem, from `problem`; absent when the row has none. */
  problem?: string;
  /** The expected value, from `expected_value`, `expectedValue` or `expected-value`. */
  expectedValue?: string;
}

/** The keys read for each field, in the order they are tried (docs/store.md, "The ledger row"). */
const SPELLINGS = {
  problem: ['problem'],
  expectedValue: ['expected_value', 'expectedValue', 'expected-value'],
} as const;

function badRow(path: string, what: string, hint: string, data: Record<string, unknown> = {}): CanvasError {
  return new CanvasError('BAD_LEDGER_ROW', `the ledger row ${path} ${what}`, hint, { path, ...data });
}

const FIX = "the row is the orchestrator's file and canvas never writes it: fix it there, or pass --problem and --expected-value";

/** The row's bytes, or null when there is no file; a regular file only, never a pipe that blocks. */
function readRowBytes(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw badRow(path, `cannot be read: ${(e as Error).message}`, FIX);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw badRow(path, 'is not a regular file', FIX, { rule: 'regular-file' });
    if (st.size > INPUT_LIMIT) throw badRow(path, `is ${st.size} bytes, more than the ${INPUT_LIMIT} a row may be`, FIX, { rule: 'size' });
    const bytes = Buffer.alloc(st.size);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

function field(row: Record<string, unknown>, path: string, keys: readonly string[]): string | undefined {
  let found: { key: string; value: string } | undefined;
  for (const key of keys) {
    const value = row[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw badRow(path, `has "${key}" as ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a string`, FIX, { field: key });
    if (found && found.value !== value) {
      throw badRow(path, `has both "${found.key}" and "${key}", and they differ`, `keep one of them in the row, or pass the value as a flag`, { field: key });
    }
    found ??= { key, value };
  }
  return found?.value;
}

/**
 * Read the fields `canvas open` takes from the ledger row `state/ledger/<ledger>.json` of the
 * workspace (docs/store.md, "The ledger row"): `problem`, and the expected value as
 * `expected_value`, `expectedValue` or `expected-value`. The row is read, never written; a missing
 * file is no error (the fields are then absent), and a field that is null or absent is absent.
 *
 * @param ws - the workspace
 * @param ledger - the ledger id (already checked)
 * @returns the row's path and the fields it gives
 * @throws CanvasError `BAD_LEDGER_ROW` (with `data.path`) when the file is not a regular file, is
 *   larger than a payload may be, is not strict UTF-8, is not JSON (the message carries the
 *   parser's error), is not a JSON object, holds a field that is not a string, or spells one field
 *   twice with different values
 */
export function readLedgerRow(ws: Workspace, ledger: string): LedgerRowFields {
  const path = join(ws.ledgerDir, `${ledger}.json`);
  const bytes = readRowBytes(path);
  if (bytes === null) return { path };
  const bad = firstBadUtf8(bytes);
  if (bad >= 0) throw badRow(path, `is not UTF-8: byte ${bad} is malformed`, FIX, { offset: bad });
  let row: unknown;
  try {
    row = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    throw badRow(path, `is not JSON: ${(e as Error).message}`, FIX, { json: (e as Error).message });
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    throw badRow(path, `is not a JSON object (it holds ${Array.isArray(row) ? 'an array' : row === null ? 'null' : `a ${typeof row}`})`, FIX);
  }
  const o = row as Record<string, unknown>;
  const problem = field(o, path, SPELLINGS.problem);
  const expectedValue = field(o, path, SPELLINGS.expectedValue);
  return { path, ...(problem === undefined ? {} : { problem }), ...(expectedValue === undefined ? {} : { expectedValue }) };
}
