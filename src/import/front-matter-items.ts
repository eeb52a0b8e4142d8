import { parseDocument, stringify } from 'yaml';

/** What YAML front matter maps to: list items, raw text (not valid YAML), or nothing (empty). */
export type FrontMatter = { items: string[] } | { text: string } | null;

function render(value: unknown): { text: string; nested: boolean } {
  if (value === null || value === undefined) return { text: '', nested: false };
  if (typeof value === 'string') return { text: value, nested: false };
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return { text: String(value), nested: false };
  if (value instanceof Date) return { text: value.toISOString(), nested: false };
  const flow = stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim();
  return { text: flow.replace(/\n\s*/g, ' '), nested: true };
}

/**
 * Map YAML front matter to the items of a `list` (docs/import.md, "The mapping"): a mapping
 * gives one `key: value` item per key (a null value gives `key:`), a sequence one item per
 * element, a scalar one item; nested values are written as compact flow YAML on one line.
 * Source that is not valid YAML is returned as raw text; empty front matter as null.
 *
 * @param source - the front matter without its `---` fences
 * @param line - the line of the opening fence, for reports
 * @param report - records what was flattened or skipped
 * @returns the items, the raw text, or null
 */
export function frontMatterItems(source: string, line: number, report: (line: number, what: string) => void): FrontMatter {
  const doc = parseDocument(source, { uniqueKeys: true, prettyErrors: false });
  let data: unknown;
  try {
    if (doc.errors.length > 0) throw doc.errors[0];
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (source.trim() === '') return null;
    const why = String((e as Error).message ?? e).split('\n')[0];
    report(line, `front matter is not valid YAML (${why}): kept as text`);
    return { text: source };
  }
  if (data === null || data === undefined) {
    report(line, 'front matter is empty: skipped');
    return null;
  }
  const items: string[] = [];
  const add = (prefix: string, value: unknown, name: string): void => {
    const r = render(value);
    if (r.nested) report(line, `front matter ${name}: nested value written on one line`);
    const item = `${prefix}${r.text}`.trimEnd();
    if (item.trim() === '') report(line, `front matter ${name}: empty value dropped`);
    else items.push(item);
  };
  if (Array.isArray(data)) {
    for (const [i, v] of data.entries()) add('', v, `item ${i + 1}`);
  } else if (typeof data === 'object' && !(data instanceof Date)) {
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) add(`${k}: `, v, `"${k}"`);
  } else add('', data, 'value');
  if (items.length === 0) return null;
  return { items };
}
