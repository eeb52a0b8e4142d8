import { CanvasError } from './canvas-error.js';
import { scenePayload } from './excalidraw/scene-payload.js';
import { parsePayload } from './parse-payload.js';
import { checkInputSize, checkNodeSize } from './size-limits.js';
import { findBadCharacter } from './text-characters.js';
import type { NodePayload } from './types.js';

/**
 * A payload as a writer gives it (docs/cli.md): one XML fragment, or the sugar of
 * `--text`, `--question` and `--section TITLE`. A question is open unless `answered` is true
 * (`--answered`), so replacing an answered question re-opens it only when asked to (docs/cli.md,
 * "Payload"). An `excalidraw` payload is a scene file's text, stored as a figure of that kind with
 * an optional one-line caption (docs/excalidraw.md).
 */
export type PayloadInput = { xml: string } | { text: string } | { question: string; answered?: boolean | undefined } | { section: string } | { excalidraw: string; caption?: string | undefined };

const KEYS = ['xml', 'text', 'question', 'section', 'excalidraw'] as const;

/**
 * Check and normalize the words of a sugar payload: line ends normalized as XML does (CRLF and CR
 * to LF), not blank, no control character but tab and line feed, well-formed Unicode, no
 * character XML cannot hold.
 *
 * @param label - how to name the value in messages, for example `the --text payload`
 */
export function checkWords(value: string, label: string, path: string): string {
  const text = value.replace(/\r\n?/g, '\n');
  if (/^[ \t\n]*$/.test(text)) {
    throw new CanvasError('SCHEMA', `${label} is blank`, `give ${label} one or more words`, { path });
  }
  // The one rule of docs/schema.md, "Characters".
  const bad = findBadCharacter(text, 'text');
  if (bad?.what === 'a lone surrogate') {
    throw new CanvasError('SCHEMA', `${label} holds a lone surrogate (not valid Unicode text)`, 'send well-formed UTF-16 / UTF-8 text', { path });
  }
  if (bad) {
    throw new CanvasError('SCHEMA', `${label} holds the character ${bad.codePoint}, which a canvas cannot hold`, 'remove it; of the control characters only tab and line feed are allowed', {
      path,
      codePoint: bad.codePoint,
    });
  }
  return text;
}

/**
 * Turn a writer's payload into a node payload (no id, no v).
 *
 * @param input - exactly one of `{xml}` (a fragment), `{text}`, `{question}` (with `answered`,
 *   default false: open), `{section}`, `{excalidraw}` (a scene's text, with `caption`), a string
 * @returns the checked payload
 * @throws CanvasError `USAGE` (not exactly one of the four, or not a string; an `answered` that
 *   is not a boolean or comes with another payload), `TOO_LARGE` (longer
 *   than the input limit of docs/canonical.md "Size limits"), `XML_PARSE`, `UNSAFE_XML`,
 *   `PAYLOAD_HAS_ID`, `PAYLOAD_CHILDREN`, `SCHEMA`, `TOO_LARGE` (a node of more than the node limit);
 *   for a scene `SCENE_JSON`, `SCENE_INVALID`, `SCENE_LIMIT`, `UNSAFE_SCENE` (docs/excalidraw.md)
 */
export function payloadFromInput(input: PayloadInput): NodePayload {
  const given = input !== null && typeof input === 'object' ? KEYS.filter((k) => k in input) : [];
  const value = given.length === 1 ? (input as Record<string, unknown>)[given[0]!] : undefined;
  if (given.length !== 1 || typeof value !== 'string') {
    throw new CanvasError(
      'USAGE',
      given.length === 1 ? `the ${given[0]} payload is not a string` : `a payload is exactly one of xml, text, question, section or excalidraw${given.length > 1 ? `, not ${given.join(' and ')}` : ''}`,
      'for example --text "We ship on Friday." (the library: { text: "We ship on Friday." })',
      { given },
    );
  }
  const answered = (input as { answered?: unknown }).answered;
  const caption = (input as { caption?: unknown }).caption;
  if (caption !== undefined && (given[0] !== 'excalidraw' || typeof caption !== 'string')) {
    throw new CanvasError(
      'USAGE',
      given[0] !== 'excalidraw' ? `caption goes with an excalidraw payload, not a ${given[0]} payload (give other figures as xml)` : 'caption is a string',
      'for example --excalidraw-file sketch.excalidraw --caption "The services" (the library: { excalidraw: text, caption: "The services" })',
      { given },
    );
  }
  if (answered !== undefined && (given[0] !== 'question' || typeof answered !== 'boolean')) {
    throw new CanvasError(
      'USAGE',
      given[0] !== 'question' ? `answered marks a question payload, not a ${given[0]} payload` : 'answered is true or false',
      'for example --question "Who owns it?" --answered (the library: { question: "Who owns it?", answered: true })',
      { given },
    );
  }
  // Refused before parsing: a payload longer than a whole canvas cannot become a node of one.
  checkInputSize(value.length, `the ${given[0]} payload`, 'characters');
  const payload =
    given[0] === 'excalidraw'
      ? scenePayload(checkWords(value, 'the scene (excalidraw)', '/figure'), captionOf(caption as string | undefined))
      : nodeOf(given[0] as Exclude<(typeof KEYS)[number], 'excalidraw'>, value, answered === true);
  checkNodeSize(payload);
  return payload;
}

/** A figure caption given beside a payload: one line, not blank (docs/schema.md). */
function captionOf(caption: string | undefined): string | undefined {
  if (caption === undefined) return undefined;
  const line = checkWords(caption, 'the caption (--caption)', '/figure');
  if (line.includes('\n')) throw new CanvasError('SCHEMA', 'a caption (--caption) is one line', 'shorten the caption to one line', { path: '/figure' });
  return line;
}

function nodeOf(key: Exclude<(typeof KEYS)[number], 'excalidraw'>, value: string, answered: boolean): NodePayload {
  switch (key) {
    case 'xml':
      return parsePayload(value);
    case 'text':
      return { type: 'text', text: checkWords(value, 'the text payload (--text)', '/text') };
    case 'question':
      return { type: 'question', answered, text: checkWords(value, 'the question payload (--question)', '/question') };
    default: {
      const title = checkWords(value, 'the section title (--section)', '/section');
      if (title.includes('\n')) {
        throw new CanvasError('SCHEMA', 'a section title (--section) is one line', 'shorten the title to one line', { path: '/section' });
      }
      return { type: 'section', title, children: [] };
    }
  }
}
