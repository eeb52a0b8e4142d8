import { CanvasError } from './canvas-error.js';
import { parsePayload } from './parse-payload.js';
import { DOC_CONTROL } from './patterns.js';
import type { NodePayload } from './types.js';

/**
 * A payload as a writer gives it (design section 10): one XML fragment, or the sugar of
 * `--text`, `--question` and `--section TITLE`.
 */
export type PayloadInput = { xml: string } | { text: string } | { question: string } | { section: string };

function sugar(kind: string, value: string): void {
  if (/^[ \t\n\r]*$/.test(value)) {
    throw new CanvasError('SCHEMA', `--${kind} is blank`, `give --${kind} the words of the node`, { path: `/${kind}` });
  }
  const m = DOC_CONTROL.exec(value);
  if (m) {
    const cp = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new CanvasError('SCHEMA', `--${kind} holds the control character ${cp}`, 'remove it; only tab and line feed are allowed', {
      path: `/${kind}`,
    });
  }
}

/**
 * Turn a writer's payload into a node payload (no id, no v).
 *
 * @param input - `{xml}` for a fragment, or `{text}`, `{question}`, `{section}` sugar
 * @returns the checked payload
 * @throws CanvasError `XML_PARSE`, `UNSAFE_XML`, `PAYLOAD_HAS_ID`, `PAYLOAD_CHILDREN`, `SCHEMA`
 */
export function payloadFromInput(input: PayloadInput): NodePayload {
  if ('xml' in input) return parsePayload(input.xml);
  if ('text' in input) {
    sugar('text', input.text);
    return { type: 'text', text: input.text };
  }
  if ('question' in input) {
    sugar('question', input.question);
    return { type: 'question', answered: false, text: input.question };
  }
  sugar('section', input.section);
  if (input.section.includes('\n')) {
    throw new CanvasError('SCHEMA', '--section: a section title is one line', 'shorten the title to one line', { path: '/section' });
  }
  return { type: 'section', title: input.section, children: [] };
}
