import { setImmediate as nextTurn } from 'node:timers/promises';
import { holdsUtf8Text, serializeJson } from './utf8-json.js';

/**
 * Bytes of JSON written before the thread is given back to the event loop (about half a
 * millisecond of serializing). A big page's answer (a commit range's diff and the blobs of its
 * `files` map: megabytes) serialized in one call held the thread for 10–30 ms; with 16 such
 * pages built at once, a trivial request waited behind several of them.
 */
export const TURN_BYTES = 64 * 1024;

/** Array elements serialized in one call: a diff's files, a listing's items. */
const ARRAY_BATCH = 16;

/**
 * Objects descended into, counted from the answer: the answer's members and their members
 * (a diff's file list, the entries of a `files` map) are written one by one. Deeper values
 * are written whole, by one call each.
 */
const MAX_DEPTH = 2;

/**
 * The UTF-8 bytes of `serializeJson(value)` (`JSON.stringify` with file contents written from
 * their bytes), written a piece at a time with a turn of the event loop after every
 * {@link TURN_BYTES}: the answer's objects are walked down to {@link MAX_DEPTH} and their
 * arrays written {@link ARRAY_BATCH} elements per call, the rest of each value by
 * `serializeJson` itself, so the bytes are the same.
 * @param value - the answer
 * @returns its JSON bytes
 */
export async function serializeJsonInTurns(value: unknown): Promise<Buffer> {
  const writer = new TurnWriter();
  await writeValue(writer, value, 0);
  return writer.finish();
}

/** Collects the pieces of one answer and gives the thread back between them. */
class TurnWriter {
  private readonly parts: Buffer[] = [];
  private texts: string[] = [];
  private sinceTurn = 0;

  text(text: string): void {
    this.texts.push(text);
    this.sinceTurn += text.length;
  }

  piece(json: string | Buffer): void {
    if (typeof json === 'string') return this.text(json);
    this.flushTexts();
    this.parts.push(json);
    this.sinceTurn += json.length;
  }

  /** Waits for the next turn once {@link TURN_BYTES} were written since the last. */
  async pause(): Promise<void> {
    if (this.sinceTurn < TURN_BYTES) return;
    this.flushTexts();
    this.sinceTurn = 0;
    await nextTurn();
  }

  finish(): Buffer {
    this.flushTexts();
    return this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
  }

  private flushTexts(): void {
    if (this.texts.length === 0) return;
    this.parts.push(Buffer.from(this.texts.join(''), 'utf8'));
    this.texts = [];
  }
}

async function writeValue(writer: TurnWriter, value: unknown, depth: number): Promise<void> {
  if (Array.isArray(value)) return writeArray(writer, value);
  if (depth < MAX_DEPTH && isWalkable(value)) return writeObject(writer, value, depth);
  writer.piece(serializeJson(value));
  await writer.pause();
}

async function writeObject(writer: TurnWriter, value: Record<string, unknown>, depth: number): Promise<void> {
  writer.text('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    // What JSON.stringify leaves out of an object.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    writer.text(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    await writeValue(writer, member, depth + 1);
  }
  writer.text('}');
}

async function writeArray(writer: TurnWriter, value: readonly unknown[]): Promise<void> {
  if (value.length <= ARRAY_BATCH) {
    writer.piece(serializeJson(value));
    return writer.pause();
  }
  writer.text('[');
  for (let start = 0; start < value.length; start += ARRAY_BATCH) {
    const batch = serializeJson(value.slice(start, start + ARRAY_BATCH));
    // The batch's elements without its brackets.
    if (start > 0) writer.text(',');
    writer.piece(typeof batch === 'string' ? batch.slice(1, -1) : batch.subarray(1, -1));
    await writer.pause();
  }
  writer.text(']');
}

/**
 * A plain object: walked member by member. Others (with `toJSON`, another prototype) are
 * written whole, as JSON.stringify writes them, and so are objects holding file contents as
 * bytes: read here, outside `serializeJson`, such a field would decode its text.
 */
function isWalkable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || holdsUtf8Text(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
