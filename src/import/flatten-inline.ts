import type { Definition, PhrasingContent } from 'mdast';

/** What inline flattening needs: where to report, and the document's link definitions. */
export interface InlineContext {
  /** Record a flattening at a 1-based line. */
  report: (line: number, what: string) => void;
  /** Link reference definitions by normalized identifier. */
  definitions: ReadonlyMap<string, Definition>;
}

/** An image lifted out of a paragraph, to become a `link` node of its own. */
interface LiftedImage {
  href: string;
  label: string;
  line: number;
}

/** Flattened inline content: the plain text and, when asked for, the lifted images. */
export interface FlatText {
  text: string;
  images: LiftedImage[];
}

/**
 * Quote some text for a report: whitespace collapsed to one line, cut with `…` past `max`.
 *
 * @param text - the words
 * @param max - the longest quotation, in code points (default 40)
 * @returns the text in double quotes
 */
export function quote(text: string, max = 40): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return `"${[...one].length > max ? `${[...one].slice(0, max).join('')}…` : one}"`;
}

function address(url: string): string {
  return url.trim() === '' ? 'no address' : `address ${url}`;
}

const FORMATTING: Readonly<Record<string, string>> = {
  emphasis: 'emphasis',
  strong: 'strong emphasis',
  delete: 'strikethrough',
};

/**
 * Flatten inline Markdown (phrasing content) to plain text (docs/import.md, "Inline"): the
 * words of emphasis, strong, strikethrough, inline code and links are kept and the formatting
 * dropped, inline HTML is kept as its raw source, a hard break becomes a line feed. Every
 * flattening is reported with its line.
 *
 * @param nodes - the phrasing children of a paragraph, heading, table cell, ...
 * @param ctx - the report callback and the link definitions
 * @param line - the enclosing block's line, for nodes without a position
 * @param liftImages - true in a paragraph: images become {@link LiftedImage}s and leave no text;
 *   false elsewhere: an image is replaced by its alt text (or address) and reported
 * @returns the text (not trimmed) and the lifted images
 */
export function flattenInline(nodes: readonly PhrasingContent[], ctx: InlineContext, line: number, liftImages = false): FlatText {
  const images: LiftedImage[] = [];
  const walk = (list: readonly PhrasingContent[]): string => list.map(one).join('');
  const one = (node: PhrasingContent): string => {
    const at = node.position?.start.line ?? line;
    switch (node.type) {
      case 'text':
        return node.value;
      case 'break':
        return '\n';
      case 'emphasis':
      case 'strong':
      case 'delete': {
        const text = walk(node.children);
        ctx.report(at, `${FORMATTING[node.type]} flattened to plain text: ${quote(text)}`);
        return text;
      }
      case 'inlineCode':
        ctx.report(at, `inline code flattened to plain text: ${quote(node.value)}`);
        return node.value;
      case 'link': {
        const text = walk(node.children);
        // An autolink (`<https://..>`, a bare URL, an e-mail address) loses nothing: its text is its address.
        if (node.url !== text && node.url !== `mailto:${text}`) ctx.report(at, `link flattened to its text ${quote(text)} (${address(node.url)})`);
        return text;
      }
      case 'linkReference': {
        const text = walk(node.children);
        const url = ctx.definitions.get(node.identifier)?.url;
        ctx.report(at, `link flattened to its text ${quote(text)} (${url === undefined ? `reference [${node.label ?? node.identifier}]` : address(url)})`);
        return text;
      }
      case 'image':
      case 'imageReference': {
        const url = node.type === 'image' ? node.url : (ctx.definitions.get(node.identifier)?.url ?? '');
        const alt = node.alt ?? '';
        if (liftImages) {
          images.push({ href: url, label: alt.trim() === '' ? url : alt, line: at });
          return '';
        }
        ctx.report(at, `image flattened to its ${alt.trim() === '' ? 'address' : 'alt text'} ${quote(alt.trim() === '' ? url : alt)} (${address(url)})`);
        return alt.trim() === '' ? url : alt;
      }
      case 'html':
        ctx.report(at, `inline HTML kept as text: ${quote(node.value)}`);
        return node.value;
      case 'footnoteReference':
        ctx.report(at, `footnote reference [^${node.label ?? node.identifier}] kept as text`);
        return `[^${node.label ?? node.identifier}]`;
      default: {
        // Phrasing content of an extension this importer does not know: keep its words.
        const other = node as { type: string; value?: unknown; children?: PhrasingContent[] };
        const text = typeof other.value === 'string' ? other.value : other.children ? walk(other.children) : '';
        ctx.report(at, `${other.type} flattened to plain text: ${quote(text)}`);
        return text;
      }
    }
  };
  return { text: walk(nodes), images };
}
