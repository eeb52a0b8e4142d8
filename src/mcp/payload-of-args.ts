import { CanvasError } from '../model/canvas-error.js';
import type { PayloadInput } from '../model/payload-from-input.js';

/** The payload arguments of canvas_insert and canvas_replace. */
export interface PayloadArgs {
  xml?: string | undefined;
  text?: string | undefined;
  question?: string | undefined;
  answered?: boolean | undefined;
  section?: string | undefined;
}

/**
 * Exactly one payload argument: `xml`, `text`, `question` or `section` (docs/cli.md).
 *
 * @returns the payload as the store takes it
 * @throws CanvasError `USAGE` when none or several are given, or `answered` without `question`
 */
export function payloadOfArgs(args: PayloadArgs): PayloadInput {
  const given = (['xml', 'text', 'question', 'section'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new CanvasError(
      'USAGE',
      given.length === 0 ? 'a payload is required: one of xml, text, question, section' : `give one payload, not ${given.join(' and ')}`,
      'for example text: "We ship on Friday." or xml: "<question>Who owns it?</question>"',
      { given },
    );
  }
  if (args.answered !== undefined && args.question === undefined) {
    throw new CanvasError('USAGE', 'answered marks a question payload', 'for example question: "Who owns it?", answered: true', { given });
  }
  if (args.xml !== undefined) return { xml: args.xml };
  if (args.text !== undefined) return { text: args.text };
  if (args.question !== undefined) return args.answered === undefined ? { question: args.question } : { question: args.question, answered: args.answered };
  return { section: args.section! };
}
