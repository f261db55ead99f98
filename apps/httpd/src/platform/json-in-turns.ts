import { setImmediate as nextTurn } from 'node:timers/promises';
import { holdsUtf8Text, type JsonPieces, jsonPieces, piecesByteLength, writePiece } from './utf8-json.js';

/**
 * Bytes of JSON written before the thread is given back to the event loop (about half a
 * millisecond of serializing). A big page's answer (a commit range's diff and the blobs of its
 * `files` map: megabytes) serialized in one call held the thread for tens of ms; with many such
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
 * arrays taken {@link ARRAY_BATCH} elements per call, the rest of each value serialized whole
 * (`jsonPieces`), so the bytes are the same. Contents are copied once, into the answer's bytes.
 * @param value - the answer
 * @returns its JSON bytes
 */
export async function serializeJsonInTurns(value: unknown): Promise<Buffer> {
  const writer = new TurnWriter();
  await writeValue(writer, value, 0);
  return writer.finish();
}

/** Collects the pieces of one answer, then writes them into its bytes, giving the thread back between them. */
class TurnWriter {
  private readonly pieces: JsonPieces = [];
  private sinceTurn = 0;

  add(pieces: JsonPieces): void {
    for (const piece of pieces) {
      this.pieces.push(piece);
      this.sinceTurn += piece.length;
    }
  }

  /** Waits for the next turn once {@link TURN_BYTES} were taken since the last. */
  async pause(): Promise<void> {
    if (this.sinceTurn < TURN_BYTES) return;
    this.sinceTurn = 0;
    await nextTurn();
  }

  /**
   * The answer's bytes: one buffer, measured first, then written with a turn after every four
   * {@link TURN_BYTES} (copying and encoding cost less than serializing).
   */
  async finish(): Promise<Buffer> {
    const bytes = Buffer.allocUnsafe(piecesByteLength(this.pieces));
    let written = 0;
    let sinceTurn = 0;
    for (const piece of this.pieces) {
      const count = writePiece(bytes, written, piece);
      written += count;
      sinceTurn += count;
      if (sinceTurn >= TURN_BYTES * 4) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
    return bytes;
  }
}

async function writeValue(writer: TurnWriter, value: unknown, depth: number): Promise<void> {
  if (Array.isArray(value)) return writeArray(writer, value);
  if (depth < MAX_DEPTH && isWalkable(value)) return writeObject(writer, value, depth);
  writer.add(jsonPieces(value));
  await writer.pause();
}

async function writeObject(writer: TurnWriter, value: Record<string, unknown>, depth: number): Promise<void> {
  writer.add(['{']);
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    // What JSON.stringify leaves out of an object.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    writer.add([`${first ? '' : ','}${JSON.stringify(key)}:`]);
    first = false;
    await writeValue(writer, member, depth + 1);
  }
  writer.add(['}']);
}

async function writeArray(writer: TurnWriter, value: readonly unknown[]): Promise<void> {
  writer.add(['[']);
  for (let start = 0; start < value.length; start += ARRAY_BATCH) {
    // The batch's elements without its brackets: its first and last pieces are texts.
    const batch = jsonPieces(value.slice(start, start + ARRAY_BATCH));
    const last = batch.length - 1;
    batch[0] = (batch[0] as string).slice(1);
    batch[last] = (batch[last] as string).slice(0, -1);
    if (start > 0) writer.add([',']);
    writer.add(batch);
    await writer.pause();
  }
  writer.add([']']);
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
