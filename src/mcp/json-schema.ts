/**
 * The JSON Schemas the MCP server lists (docs/mcp.md, "The budget"): written out by hand, as
 * compact as a model can read them, because a host sends every tool's schemas to the model on
 * every turn. The builders below say each shape once; {@link standardSchema} hands one to the SDK,
 * which lists it as written and validates with it (Ajv, compiled on first use, so a server that
 * is started and asked for one tool compiles one schema).
 *
 * The schemas use only what JSON Schema draft-07 and 2020-12 read alike (`$defs` and `$ref` for
 * shapes shared inside one schema, `type` lists for null), so the v1 client's draft-07 validator
 * and the v2 client's 2020-12 one check results the same way.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** A JSON Schema, as listed. */
export type Json = { [key: string]: unknown };

export const str: Json = { type: 'string' };
export const bool: Json = { type: 'boolean' };
export const int: Json = { type: 'integer' };
/** A count: 0 or more. */
export const count: Json = { type: 'integer', minimum: 0 };
/** A string or null. */
export const strOrNull: Json = { type: ['string', 'null'] };

/** One of these strings. */
export const oneOf = (...values: readonly string[]): Json => ({ enum: values });

/** An array (of `items`, when its items are worth describing). */
export const arr = (items?: Json): Json => (items ? { type: 'array', items } : { type: 'array' });

/** A reference to a shape in the schema's `$defs`. */
export const ref = (name: string): Json => ({ $ref: `#/$defs/${name}` });

let ajv: Ajv2020 | null = null;

/**
 * Each schema compiled once per process, by its text: `/mcp` builds a server instance, and with it
 * every tool's schema objects, for each request (docs/mcp.md, "Over HTTP"), and compiling a tool's
 * input schema again at each call was the largest part of a write's CPU there.
 */
const compiled = new Map<string, ValidateFunction>();

function compile(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let check = compiled.get(key);
  if (check === undefined) {
    ajv ??= new Ajv2020({ strict: false, allErrors: true });
    check = ajv.compile(schema);
    compiled.set(key, check);
  }
  return check;
}

/** One refusal of an argument, in the words a model can act on. */
function wordsOf(e: ErrorObject): string {
  const at = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `${at ? `${at}.` : ''}${String(p.additionalProperty)} is not an argument`;
  if (e.keyword === 'required') return `${at ? `${at}.` : ''}${String(p.missingProperty)} is required`;
  if (e.keyword === 'enum') return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return `${at || 'the arguments'} ${e.message ?? 'is not valid'}`;
}

/**
 * A JSON Schema as the SDK takes a tool's input or output schema: listed as written, validated
 * with Ajv (compiled when first used). A refusal names each argument and what is wrong with it
 * (`why is required`, `idempotencyKy is not an argument`).
 *
 * @param schema - the JSON Schema, as listed
 * @returns the schema in the Standard Schema form the SDK's `registerTool` takes
 */
export function standardSchema<T>(schema: Json): StandardSchemaWithJSON<T, T> {
  let check: ValidateFunction | null = null;
  return {
    '~standard': {
      version: 1,
      vendor: 'canvas',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value: unknown) => {
        check ??= compile(schema);
        if (check(value)) return { value: value as T };
        return { issues: (check.errors ?? []).map((e) => ({ message: wordsOf(e) })) };
      },
    },
  };
}
