/**
 * The bytes of a delta applied to its base, as git's pack format defines a delta: the base's
 * size and the result's (each a little-endian base-128 number), then instructions that copy a
 * range of the base or insert the bytes that follow (docs/store.md, "Long-lived git processes").
 *
 * @param base - the base object's bytes
 * @param delta - the delta, inflated
 * @returns the object's bytes
 * @throws Error when the delta does not fit its base (the caller then asks git)
 */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const size = () => {
    let n = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[at++]!;
      n += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return n;
  };
  if (size() !== base.length) throw new Error('delta base size');
  const out = Buffer.alloc(size());
  let put = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[at++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) length += delta[at++]! * 2 ** (8 * i);
      if (length === 0) length = 0x10000;
      if (offset + length > base.length || put + length > out.length) throw new Error('delta copy');
      put += base.copy(out, put, offset, offset + length);
    } else if (op > 0) {
      if (at + op > delta.length || put + op > out.length) throw new Error('delta insert');
      put += delta.copy(out, put, at, at + op);
      at += op;
    } else {
      throw new Error('delta op 0');
    }
  }
  if (put !== out.length) throw new Error('delta result size');
  return out;
}
