/**
 * Orders strings by their UTF-8 bytes, as Rust orders `String`s and `BTreeMap`/`BTreeSet` keys
 * (ref names, labels, canonical JSON keys). UTF-8 byte order is Unicode code point order, so the
 * strings are compared code point by code point without encoding them; JavaScript's own `<`
 * compares UTF-16 code units, which differs for characters above U+FFFF.
 * @returns negative, zero or positive like `Array.prototype.sort` expects
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done === true || y.done === true) return x.done === true ? (y.done === true ? 0 : -1) : 1;
    const diff = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
}
