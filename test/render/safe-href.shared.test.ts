// Link safety (docs/projections.md, "What all three say"): only http, https and mailto become
// anchors, the scheme judged after decoding, trimming and case-folding; anything else is shown as
// code (page) or text (comment), never a link.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { pageOf } from './page-of.js';
import { safeHref } from '../../src/model/safe-href.js';
import { byId, elements, parsePage, textOf } from './page-claims.js';
import { snapshotOf } from './snapshot-of.js';

const UNSAFE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java&#x09;script:alert(1)',
  'java&#9;script:alert(1)',
  'java&Tab;script:alert(1)',
  'javascript&colon;alert(1)',
  '%6Aavascript:alert(1)',
  '%256Aavascript:alert(1)',
  'java%09script:alert(1)',
  '   javascript:alert(1)',
  '\tjavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://example.com/x',
  'https%3A//example.com',
  'https:',
  '//example.com/x',
  '/relative/path',
  'src/store/apply-edit.ts#L120',
  '#top',
  '',
];

const SAFE: Array<[string, string]> = [
  ['https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
  ['http://example.com', 'http://example.com'],
  ['HTTPS://EXAMPLE.COM', 'HTTPS://EXAMPLE.COM'],
  ['mailto:owner@example.com', 'mailto:owner@example.com'],
  ['  https://example.com/trimmed  ', 'https://example.com/trimmed'],
];

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\t/g, '&#9;');
}

describe('safeHref', () => {
  it.each(UNSAFE)('refuses %j', (href) => {
    expect(safeHref(href)).toBeNull();
  });

  it.each(SAFE)('accepts %j', (href, out) => {
    expect(safeHref(href)).toBe(out);
  });
});

describe('links in the page and the comment', () => {
  const hrefs = UNSAFE.filter((h) => h !== '');
  const xml = hrefs.map((h, i) => `<link id="l${i}" v="1" href="${escapeXml(h)}">label ${i}</link>`).join('');

  it('never makes an anchor of an unsafe href; shows it as code', async () => {
    const tree = parsePage(await pageOf(snapshotOf(xml)));
    hrefs.forEach((href, i) => {
      const node = byId(tree, `l${i}`)!;
      const anchors = elements(node).filter((e) => e.el.tagName === 'a' && !String(e.el.properties.href).startsWith('#'));
      expect(anchors, href).toEqual([]);
      const code = elements(node).find((e) => e.el.tagName === 'code');
      expect(code && textOf(code.el)).toBe(href);
    });
    for (const { el } of elements(tree)) {
      if (el.tagName !== 'a') continue;
      expect(String(el.properties.href)).toMatch(/^#/);
    }
  });

  it('never makes a Markdown link of an unsafe href', () => {
    const tree = fromMarkdown(renderComment(snapshotOf(xml)));
    const kinds: string[] = [];
    const walk = (n: { type: string; children?: unknown[] }): void => {
      kinds.push(n.type);
      for (const c of (n.children ?? []) as Array<{ type: string; children?: unknown[] }>) walk(c);
    };
    walk(tree);
    expect(kinds).not.toContain('link');
    expect(kinds).not.toContain('html');
  });

  it('makes safe hrefs anchors with rel="noopener noreferrer", and Markdown links in the comment', async () => {
    const xml2 = SAFE.map(([h], i) => `<link id="k${i}" v="1" href="${escapeXml(h)}">safe ${i}</link>`).join('');
    const tree = parsePage(await pageOf(snapshotOf(xml2)));
    SAFE.forEach(([, out], i) => {
      const a = elements(byId(tree, `k${i}`)!).find((e) => e.el.tagName === 'a' && !String(e.el.properties.href).startsWith('#'));
      expect(a?.el.properties.href).toBe(out);
      expect(a?.el.properties.rel).toEqual(['noopener', 'noreferrer']);
      expect(textOf(a!.el)).toBe(`safe ${i}`);
    });
    const md = fromMarkdown(renderComment(snapshotOf(xml2)));
    const urls: string[] = [];
    const walk = (n: { type: string; url?: string; children?: unknown[] }): void => {
      if (n.type === 'link') urls.push(n.url!);
      for (const c of (n.children ?? []) as Array<{ type: string; children?: unknown[] }>) walk(c);
    };
    walk(md);
    expect(urls).toEqual(SAFE.map(([, out]) => out));
  });
});
