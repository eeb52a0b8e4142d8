import type { Root, Text } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../../src/render/comment/render-comment.js';
import { snapshotOf } from '../snapshot-of.js';

/** Every text value of a parsed Markdown tree, in order. */
function texts(tree: Root): string[] {
  const out: string[] = [];
  const walk = (n: { type: string; value?: string; children?: unknown[] }) => {
    if (n.type === 'text') out.push((n as Text).value);
    for (const c of (n.children ?? []) as (typeof n)[]) walk(c);
  };
  walk(tree);
  return out;
}

/** A word-initial `@` left as it is in the Markdown source: what the Basecamp CLI reads as a mention. */
const BARE_MENTION = /(^|[^\p{L}\p{N}\p{M}._%+\-\\])@/mu;

describe('the comment never mentions anyone: a word-initial @ is written \\@', () => {
  const NODES =
    '<section id="s1" v="1" title="@team notes">' +
    '<text id="t1" v="1">@leo please look; mail leo@example.com or (@cam).</text>' +
    '<list id="l1" v="1"><item>@owner decides</item><item>first.last+tag@example.org</item></list>' +
    '<table id="tb" v="1"><row><cell>who</cell><cell>what</cell></row><row><cell>@ana</cell><cell>review</cell></row></table>' +
    '<question id="q1" v="1">@who signs off?</question>' +
    '<link id="k1" v="1" href="https://example.com">@docs</link>' +
    '</section>';
  const snapshot = snapshotOf(NODES, {
    lastEdit: { commit: '0123456789abcdef0123456789abcdef01234567', op: 'insert', node: 'q1', author: 'leo | by-hand', reason: 'asked @ana to decide', date: '2026-12-01T00:00:00.000Z' },
  });
  const markdown = renderComment(snapshot);

  it('holds no bare word-initial @ anywhere in the Markdown source', () => {
    const line = markdown.split('\n').find((l) => BARE_MENTION.test(l));
    expect(line).toBeUndefined();
  });

  it('reads back, through a CommonMark parse, as the words themselves, with @ and the e-mail addresses intact', () => {
    const all = texts(fromMarkdown(markdown)).join('');
    for (const words of ['@team notes', '@leo please look; mail leo@example.com or (@cam).', '@owner decides', 'first.last+tag@example.org', '@ana', '@who signs off?', '@docs', 'asked @ana to decide']) {
      expect(all).toContain(words);
    }
  });

  it('leaves an e-mail address as it is in the source', () => {
    expect(markdown).toContain('leo@example.com');
    expect(markdown).toContain('first.last+tag@example.org');
  });
});
