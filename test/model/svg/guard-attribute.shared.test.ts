import { describe, expect, it } from 'vitest';
import { guardAttribute } from '../../../src/model/svg/guard-attribute.js';

describe('guardAttribute', () => {
  it.each([
    ['use', 'href', '#r', true],
    ['use', 'xlink:href', ' #r ', true],
    ['use', 'href', 'other.svg#r', false],
    ['image', 'href', 'https://e/x.png', false],
    ['image', 'href', 'data:image/png;base64,AA', false],
    ['a', 'href', 'https://example.org', true],
    ['a', 'href', 'HTTP://example.org', true],
    ['a', 'href', 'mailto:x@example.org', true],
    ['a', 'href', 'java\tscript:alert(1)', false],
    ['a', 'href', ' javascript:alert(1)', false],
    ['a', 'href', 'ftp://e', false],
    ['a', 'href', '/relative', false],
    ['rect', 'onclick', 'x', false],
    ['svg', 'onload', 'x', false],
    ['rect', 'fill', 'url(#g)', true],
    ['rect', 'fill', `url( "#g" )`, true],
    ['rect', 'fill', 'URL(https://e)', false],
    ['rect', 'fill', 'url(https://e#x)', false],
    ['rect', 'fill', 'u\\72l(https://e)', false],
    ['rect', 'fill', 'u\\72l(#g)', false],
    ['rect', 'fill', 'url(/**/https://e)', false],
    ['rect', 'fill', 'red', true],
    ['rect', 'cursor', 'image-set("https://e" 1x)', false],
    ['animate', 'attributename', 'href', false],
    ['animate', 'attributename', 'fill', true],
    ['animate', 'values', 'javascript:alert(1)', false],
    ['feimage', 'src', 'data:x', false],
    ['text', 'x', '10', true],
  ])('<%s %s="%s"> → keep %s', (element, name, value, keep) => {
    expect(guardAttribute(element, name, value)).toBe(keep);
  });
});
