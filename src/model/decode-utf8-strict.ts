import { CanvasError } from './canvas-error.js';

/**
 * The offset of the first byte that does not start or continue a well-formed UTF-8 sequence
 * (the Unicode standard's table 3-7: no overlong form, no surrogate, nothing above U+10FFFF, no
 * sequence cut short), or -1 when every byte is part of one.
 */
export function firstBadUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Decode bytes as UTF-8, strictly (docs/cli.md "Payload files"): a malformed byte is refused with
 * its offset, never replaced by U+FFFD. A byte order mark is kept as U+FEFF: the XML parser drops
 * one and refuses a second, so a doubled mark is never dropped silently.
 *
 * @param bytes - the file's bytes
 * @param what - how to name the input, for example `--xml-file x.xml`
 * @returns the text, a leading byte order mark included
 * @throws CanvasError `BAD_ENCODING` with `data.offset` (bytes from the start of the file)
 */
export function decodeUtf8Strict(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = firstBadUtf8(bytes);
    const at = Math.max(offset, 0);
    const shown = Array.from(bytes.subarray(at, at + 4), (b) => `0x${b.toString(16).padStart(2, '0')}`).join(' ');
    throw new CanvasError(
      'BAD_ENCODING',
      `${what} is not well-formed UTF-8: byte offset ${at} (${shown}) starts no valid sequence`,
      'save the file as UTF-8 (iconv -f <encoding> -t UTF-8 FILE), or fix the bytes at that offset',
      { offset: at },
    );
  }
}
