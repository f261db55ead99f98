/**
 * Orders strings by their UTF-8 bytes, as Rust orders `String`s and `BTreeMap`/`BTreeSet` keys
 * (ref names, labels, canonical JSON keys). UTF-8 byte order is Unicode code point order, so the
 * strings are compared without encoding them. JavaScript's own `<` compares UTF-16 code units,
 * which agrees with code point order except where a surrogate (half of a character above U+FFFF)
 * meets a character from U+E000 to U+FFFF: only there is the comparison done code point by code
 * point (sorting thousands of ref names stays a loop over code units, with no allocation).
 * @returns negative, zero or positive like `Array.prototype.sort` expects
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= SURROGATE_START && y >= SURROGATE_START && isSurrogate(x) !== isSurrogate(y)) {
      return compareCodePoints(a.slice(i), b.slice(i));
    }
    return x - y;
  }
  return a.length - b.length;
}

const SURROGATE_START = 0xd800;
const SURROGATE_END = 0xdfff;

function isSurrogate(unit: number): boolean {
  return unit >= SURROGATE_START && unit <= SURROGATE_END;
}

/** Code point by code point (a lone surrogate counts as its own value). */
function compareCodePoints(a: string, b: string): number {
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
