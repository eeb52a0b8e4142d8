import { z } from 'zod';
import { CanvasError } from '../model/canvas-error.js';
import type { FigureKind } from '../model/types.js';

/** Every figure kind (docs/schema.md): a record, so the type check fails when a kind is added. */
const KINDS: Record<FigureKind, true> = { diagram: true, mermaid: true, svg: true, excalidraw: true };
const FIGURE_KINDS = Object.keys(KINDS) as [FigureKind, ...FigureKind[]];

/** A node as the page's forms give it: the fields of its type, no id, no `v` (docs/serve.md, "Editing"). */
const formNode = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).strict(),
  z.object({ type: z.literal('question'), text: z.string(), answered: z.boolean() }).strict(),
  z.object({ type: z.literal('section'), title: z.string() }).strict(),
  z.object({ type: z.literal('list'), items: z.array(z.string()).min(1), ordered: z.boolean() }).strict(),
  z.object({ type: z.literal('table'), rows: z.array(z.array(z.string()).min(2)).min(1) }).strict(),
  z.object({ type: z.literal('link'), href: z.string(), label: z.string() }).strict(),
  z.object({ type: z.literal('figure'), kind: z.enum(FIGURE_KINDS), caption: z.string().optional(), source: z.string() }).strict(),
]);

/** A node as a form gives it. */
export type FormNode = z.infer<typeof formNode>;

const common = { base: z.string(), why: z.string() };
const place = { after: z.string().optional(), into: z.string().optional() };

/** What the page POSTs to `/<ledger>/_write`: one of the four verbs (docs/serve.md, "Editing"). */
const editBody = z.discriminatedUnion('op', [
  z.object({ op: z.literal('insert'), ...common, ...place, node: formNode }).strict(),
  z.object({ op: z.literal('replace'), ...common, id: z.string(), node: formNode }).strict(),
  z.object({ op: z.literal('remove'), ...common, id: z.string() }).strict(),
  z.object({ op: z.literal('move'), ...common, ...place, id: z.string() }).strict(),
]);

/** An edit the page asks for. */
export type EditBody = z.infer<typeof editBody>;

/** What the page POSTs to `/<ledger>/_decide`: approve or reject one proposal. */
const decideBody = z.object({ decision: z.enum(['approve', 'reject']), proposal: z.string(), why: z.string() }).strict();

/** A decision on a proposal. */
export type DecideBody = z.infer<typeof decideBody>;

/** What the editor POSTs to `/_preview`: the figure it holds. */
const previewBody = z.object({ node: formNode }).strict();

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  throw new CanvasError('SERVE_BAD_REQUEST', `the request body is not an edit the page sends: ${issues.join('; ')}`, 'send the JSON shape docs/serve.md gives', {
    rule: 'shape',
    issues,
  });
}

/**
 * Check a POSTed edit's shape (the store then checks everything it says).
 *
 * @throws CanvasError `SERVE_BAD_REQUEST` (`data.rule` `shape`)
 */
export function parseEditBody(body: unknown): EditBody {
  return parsed(editBody, body);
}

/**
 * Check a POSTed decision's shape.
 *
 * @throws CanvasError `SERVE_BAD_REQUEST` (`data.rule` `shape`)
 */
export function parseDecideBody(body: unknown): DecideBody {
  return parsed(decideBody, body);
}

/**
 * Check a POSTed preview's shape.
 *
 * @throws CanvasError `SERVE_BAD_REQUEST` (`data.rule` `shape`)
 */
export function parsePreviewBody(body: unknown): { node: FormNode } {
  return parsed(previewBody, body);
}
