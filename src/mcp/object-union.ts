/**
 * One object schema that accepts exactly the values one of several object schemas accepts
 * (docs/mcp.md "Results and errors": every tool declares an output schema). MCP wants a tool's
 * `outputSchema` to be a JSON Schema of `type: "object"`, and the SDK takes only a zod object
 * there (it drops a union without a word, then fails every call). A tool's result is one of
 * several shapes (the four outcomes, or a read's value, and the error shape), so the union is
 * written as an object twice over, once for each side that checks it:
 *
 * - the server's SDK parses the structured content with zod: the object's refinement parses the
 *   union and reports its issues;
 * - the client's SDK validates with the JSON Schema the server lists: the object's metadata
 *   carries the union's branches as `anyOf`, which `toJSONSchema` writes beside `type: "object"`.
 */
import { z } from 'zod';

/**
 * Join object schemas into one object schema for a tool's `outputSchema`.
 *
 * @param variants - the shapes a result may take, each a zod object (strict, so they do not overlap)
 * @returns an object schema that parses as the union does; its JSON Schema is `{type:"object", anyOf:[...]}`
 */
export function objectUnion<const V extends readonly [z.ZodObject, ...z.ZodObject[]]>(variants: V): z.ZodType<z.output<V[number]>> {
  const union = variants.length === 1 ? variants[0] : z.union(variants as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
  const branches = variants.map((v) => {
    const { $schema: _, ...json } = z.toJSONSchema(v, { target: 'draft-7', io: 'output' });
    return json;
  });
  const joined = z.looseObject({}).superRefine((value, ctx) => {
    const parsed = union.safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: z.prettifyError(parsed.error) });
  });
  return joined.meta({ anyOf: branches }) as unknown as z.ZodType<z.output<V[number]>>;
}
