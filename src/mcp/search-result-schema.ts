/**
 * The structured result of canvas_search (docs/mcp.md "The tools", docs/search.md "A hit"): what
 * it returns as `structuredContent`, beside the same value as text. Its refusals are the error shape.
 */
import { z } from 'zod';
import { NODE_TYPES } from '../model/types.js';
import { SHA } from './outcome-schemas.js';

const COUNT = z.number().int().nonnegative();

const HIT = z.strictObject({
  ledger: z.string(),
  node: z.string(),
  type: z.enum(NODE_TYPES),
  revision: SHA,
  phrase: z.boolean(),
  score: z.number(),
  snippet: z.string(),
  marks: z.array(z.tuple([COUNT, COUNT])),
});

/** canvas_search: the hits, best first, the total, the canvases searched and indexed, and those that could not be read. */
export const SearchResultSchema = z.strictObject({
  query: z.string(),
  terms: z.array(z.string()).min(1),
  total: COUNT,
  hits: z.array(HIT),
  canvases: COUNT,
  indexed: COUNT,
  failures: z.array(z.strictObject({ ledger: z.string(), revision: SHA, error: z.strictObject({ code: z.string(), message: z.string() }) })),
});
