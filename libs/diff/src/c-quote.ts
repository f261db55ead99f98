/**
 * git's C-style path quoting (git `quote.c`, `quote_c_style` / `quote_two_c_style`), as used
 * in patch headers: a name that contains `"`, `\`, a control character or DEL is wrapped in
 * double quotes with C escapes (`\t`, `\n`, `\"`, `\\`, else three-digit octal). Bytes ≥ 0x80
 * are left as they are because the diff runs with `core.quotePath=false`.
 */

const LETTER_ESCAPES: Record<number, string> = {
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x22: '"',
  0x5c: '\\',
};

function mustQuote(byte: number): boolean {
  return byte < 0x20 || byte === 0x7f || byte === 0x22 || byte === 0x5c;
}

/**
 * Renders `prefix` + `name` the way git prints a path in a patch header.
 * @param name - the path bytes
 * @param prefix - `a/`, `b/` or empty
 * @returns the bytes, quoted only when some byte requires it
 */
export function quoteGitPath(name: Buffer, prefix = ''): Buffer {
  const full = Buffer.concat([Buffer.from(prefix, 'latin1'), name]);
  if (!full.some(mustQuote)) return full;
  const out: number[] = [0x22];
  for (const byte of full) {
    if (!mustQuote(byte)) {
      out.push(byte);
      continue;
    }
    const letter = LETTER_ESCAPES[byte];
    const escape = letter ?? byte.toString(8).padStart(3, '0');
    out.push(0x5c, ...Buffer.from(escape, 'latin1'));
  }
  out.push(0x22);
  return Buffer.from(out);
}
