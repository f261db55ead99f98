/**
 * JSON answers that carry file contents (a commit's `files` map, a blob) as the UTF-8 bytes git
 * gave, without turning them into JavaScript strings and back.
 *
 * A content field is an accessor ({@link defineUtf8Text}) over a {@link Utf8Text}: read by code,
 * it decodes; read by {@link serializeJson}, it hands the text over and leaves a placeholder in
 * the answer's text. Each placeholder is then replaced by the bytes escaped as JSON through a
 * one-byte (latin1) view: JSON.stringify escapes only `"`, `\` and characters below U+0020, all
 * ASCII, and passes bytes 0x80–0xFF through, so the view's escaped text, written back as latin1,
 * is exactly the UTF-8 bytes of `JSON.stringify(decoded)`. That saves the two-byte strings V8
 * makes for any text with a character past U+00FF, and a UTF-8 encoding pass over the contents.
 */
import { isUtf8 } from 'node:buffer';

/** What a content field stands for in the text while {@link serializeJson} runs. */
const PLACEHOLDER = '\u0000forge-utf8\u0001';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** The texts handed over by content fields during the current serialization; null outside one. */
let handedOver: Utf8Text[] | null = null;

/** A text held as its UTF-8 bytes, which must be valid UTF-8 (see {@link isUtf8Text}). */
export class Utf8Text {
  private bytes: Buffer | undefined;
  private json: Buffer | undefined;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  /**
   * The UTF-8 bytes of the text as JSON writes it (quoted and escaped); made once. Kept as a
   * buffer, outside the JavaScript heap: a prepared text waits for its answer (or in a cache),
   * and as a string it would be copied by every young-generation collection it lived through.
   */
  jsonBytes(): Buffer {
    if (this.json === undefined) {
      const text = JSON.stringify((this.bytes as Buffer).toString('latin1'));
      // A buffer of its own: `Buffer.from` puts short texts in a slice of a shared 8 KiB pool,
      // which a kept text would keep alive whole (texts are kept in the diff blob cache).
      this.json = Buffer.allocUnsafeSlow(text.length);
      this.json.write(text, 'latin1');
    }
    return this.json;
  }

  /**
   * Escapes now what {@link serializeJson} would escape later: called where the thread would
   * otherwise wait (a diff's blobs arrive while git still writes the patch). The bytes are let
   * go; code that reads the text gets it from the JSON form.
   */
  prepare(): this {
    this.jsonBytes();
    this.bytes = undefined;
    return this;
  }

  /** Bytes this text holds (its UTF-8 form, its JSON form or both). */
  get heldBytes(): number {
    return (this.bytes?.length ?? 0) + (this.json?.length ?? 0);
  }

  /** The text itself (decoded on every call: only tests and tools read it). */
  toString(): string {
    if (this.bytes !== undefined) return this.bytes.toString('utf8');
    return JSON.parse(this.jsonBytes().toString('utf8')) as string;
  }
}

/** Marks an object with a field defined by {@link defineUtf8Text} (symbol keys are not serialized). */
const HOLDS_UTF8_TEXT = Symbol('holdsUtf8Text');

/**
 * Defines `target[key]` as `text`: an enumerable accessor that reads as a string, so key order
 * and `JSON.stringify` are as for a plain string property.
 * @param target - the object (the field goes after the keys it already has)
 * @param key - the field's name
 * @param text - the text
 * @returns `target`, with the field
 */
export function defineUtf8Text<T extends object>(target: T, key: string, text: Utf8Text): T {
  (target as Record<symbol, boolean>)[HOLDS_UTF8_TEXT] = true;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): string {
      if (handedOver === null) return text.toString();
      handedOver.push(text);
      return PLACEHOLDER;
    },
  });
  return target;
}

/** True when `value` has a field defined by {@link defineUtf8Text}: it is serialized whole. */
export function holdsUtf8Text(value: object): boolean {
  return HOLDS_UTF8_TEXT in value;
}

/** True when `bytes` can be a {@link Utf8Text} (valid UTF-8). */
export function isUtf8Text(bytes: Buffer): boolean {
  return isUtf8(bytes);
}

/**
 * `JSON.stringify(value)`: as UTF-8 bytes when content fields were met, as a string otherwise.
 * The rest of the text is encoded here in one go however long it is: a multi-megabyte answer
 * is serialized in turns by its caller (json-in-turns.ts) a piece at a time, and decoding its
 * fields into one long string past a length cost more than encoding the rest, and delayed
 * every other answer meanwhile.
 * @param value - the answer
 * @returns the JSON text or its bytes
 */
export function serializeJson(value: unknown): string | Buffer {
  const pieces = jsonPieces(value);
  if (pieces.length === 1 && typeof pieces[0] === 'string') return pieces[0];
  return joinPieces(pieces);
}

/** A JSON text in order: pieces of text, and the JSON bytes of content fields between them. */
export type JsonPieces = Array<string | Buffer>;

/**
 * `JSON.stringify(value)` as {@link JsonPieces}: the text around content fields, and each
 * field's own JSON bytes (not copied). One text when no field was met.
 * @param value - the answer
 */
export function jsonPieces(value: unknown): JsonPieces {
  const outer = handedOver;
  const fields: Utf8Text[] = [];
  handedOver = fields;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    handedOver = outer;
  }
  if (fields.length === 0) return [text];
  const at = placeholderOffsets(text, fields.length);
  // Another string of the answer that reads like the placeholder: the fields decode instead.
  if (at === null) return [JSON.stringify(value)];
  const pieces: JsonPieces = [];
  let from = 0;
  for (const [index, offset] of at.entries()) {
    pieces.push(text.slice(from, offset), (fields[index] as Utf8Text).jsonBytes());
    from = offset + PLACEHOLDER_JSON.length;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/**
 * The UTF-8 bytes of `pieces`, measured first, then written into one buffer (no per-piece
 * buffers, no concatenating copy).
 */
function joinPieces(pieces: JsonPieces): Buffer {
  const bytes = Buffer.allocUnsafe(piecesByteLength(pieces));
  let written = 0;
  for (const piece of pieces) written += writePiece(bytes, written, piece);
  return bytes;
}

/** Bytes the UTF-8 form of `pieces` takes. */
export function piecesByteLength(pieces: JsonPieces): number {
  let length = 0;
  for (const piece of pieces) length += typeof piece === 'string' ? Buffer.byteLength(piece, 'utf8') : piece.length;
  return length;
}

/** Writes one piece's UTF-8 form into `bytes` at `offset`; returns the bytes written. */
export function writePiece(bytes: Buffer, offset: number, piece: string | Buffer): number {
  return typeof piece === 'string' ? bytes.write(piece, offset, 'utf8') : piece.copy(bytes, offset);
}

/** Where the `count` placeholders are, in order; null unless there are exactly that many. */
function placeholderOffsets(text: string, count: number): number[] | null {
  const offsets: number[] = [];
  for (let offset = text.indexOf(PLACEHOLDER_JSON); offset >= 0; offset = text.indexOf(PLACEHOLDER_JSON, offset + PLACEHOLDER_JSON.length)) {
    if (offsets.length === count) return null;
    offsets.push(offset);
  }
  return offsets.length === count ? offsets : null;
}
