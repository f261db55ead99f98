/**
 * SSH wire encoding helpers (RFC 4251 §5): `uint32` big-endian and `string` = uint32 length ‖
 * bytes. Internal to this library.
 */

/** Encodes a uint32 big-endian. */
export function sshUint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0, 0);
  return out;
}

/** Encodes an SSH `string` (length-prefixed bytes; text is taken as UTF-8). */
export function sshString(value: Uint8Array | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
  return Buffer.concat([sshUint32(bytes.length), bytes]);
}

/** Sequential reader over SSH wire bytes; `fail` is called on any out-of-bounds read. */
export class SshReader {
  private offset = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly fail: () => Error,
  ) {}

  /** Reads a uint32 big-endian. */
  uint32(): number {
    if (this.offset + 4 > this.bytes.length) throw this.fail();
    const value = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  /** Reads an SSH `string` as bytes. */
  string(): Buffer {
    const length = this.uint32();
    if (this.offset + length > this.bytes.length) throw this.fail();
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** Reads an SSH `string` as UTF-8 text. */
  text(): string {
    return this.string().toString('utf8');
  }

  /** Reads raw bytes of a fixed length. */
  raw(length: number): Buffer {
    if (this.offset + length > this.bytes.length) throw this.fail();
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** Bytes not read yet. */
  remaining(): number {
    return this.bytes.length - this.offset;
  }
}

/** Wraps base64 text at `width` characters per line (PEM style, no final newline). */
export function wrapBase64(base64: string, width: number): string {
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += width) lines.push(base64.slice(i, i + width));
  return lines.join('\n');
}

/** Extracts and decodes the base64 body between PEM BEGIN/END lines of `label`. */
export function unwrapPem(text: string, label: string): Buffer | null {
  const lines = text.split('\n').map((line) => line.trim());
  const begin = lines.indexOf(`-----BEGIN ${label}-----`);
  const end = lines.indexOf(`-----END ${label}-----`);
  if (begin < 0 || end <= begin) return null;
  const body = lines.slice(begin + 1, end).join('');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return null;
  return Buffer.from(body, 'base64');
}
