/**
 * Lay out a node's text for the prompt: the first line after a head, every further line of a
 * multi-line value indented under it, nothing dropped or wrapped.
 *
 * @param depth - the node's nesting (two spaces a level)
 * @param head - what starts the first line, such as `[b7] text: `
 * @param value - the value, possibly holding line feeds
 * @returns the lines
 */
export function indentLines(depth: number, head: string, value: string): string[] {
  const pad = '  '.repeat(depth);
  const [first = '', ...rest] = value.split('\n');
  return [`${pad}${head}${first}`, ...rest.map((l) => `${pad}    ${l}`)];
}
