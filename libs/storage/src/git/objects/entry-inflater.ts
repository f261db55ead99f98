/**
 * Whole zlib streams of a known inflated size (pack entries), through one inflate stream that
 * is reset between entries.
 *
 * Why: `zlib.inflateSync` builds a stream object, a native zlib state and a Transform's
 * bookkeeping for every call, and frees the native part only when the collector reaches the
 * object; a walk inflates an entry per commit.
 *
 * It drives the stream's handle the way `zlib.inflateSync` does itself (`_handle.writeSync`
 * with the results in `_writeState`). A Node whose zlib streams lack them gets
 * `zlib.inflateSync`.
 *
 * The output is the entry's own size (one byte more for the check): with zlib's default
 * chunk a small commit came back as a view of a much larger buffer, and a cache holding it
 * held all of it.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import { constants, Inflate, inflateSync } from 'node:zlib';
import { keptBytes } from './kept-bytes.js';

/** The native handle of a zlib stream, as `zlib.inflateSync` drives it. */
interface ZlibHandle {
  writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void;
  reset(): void;
}

/** The parts of a Node zlib stream this module relies on. */
interface DrivableInflate {
  readonly destroyed: boolean;
  readonly _handle?: ZlibHandle | null;
  /** [output bytes left, input bytes left] after the last `writeSync`. */
  readonly _writeState?: Uint32Array;
  on(event: 'error', listener: () => void): unknown;
}

type DrivableStream = DrivableInflate & { readonly _handle: ZlibHandle; readonly _writeState: Uint32Array };

/** Largest output chunk when the ordinary `zlib.inflateSync` is used. */
const MAX_FALLBACK_CHUNK = 1024 * 1024;

/**
 * One inflate stream reused between entries (one per runtime: the reads of every repository
 * take turns on this thread).
 */
export class EntryInflater {
  /** The stream reused between entries; null when this Node's streams cannot be driven. */
  private shared: DrivableStream | null | undefined;

  /**
   * Inflates one whole zlib stream that should hold `size` bytes. Bytes after the stream's end
   * are ignored (a pack entry is read with what follows it).
   * @returns the `size` inflated bytes, or null when the stream holds fewer or more
   * @throws InvalidDataError when the data is not a whole zlib stream
   */
  inflate(compressed: Buffer, size: number): Buffer | null {
    const stream = this.sharedStream();
    if (stream === null) return inflateOnce(compressed, size);
    // One byte of room more than declared tells "more than declared" from "exactly that".
    const output = keptBytes(size + 1);
    // Z_FINISH: zlib ends the stream, or reports why not.
    stream._handle.writeSync(constants.Z_FINISH, compressed, 0, compressed.length, output, 0, output.length);
    // An error (damaged data, or input cut before the stream's end) destroys the stream at once;
    // the next entry opens another.
    if (stream.destroyed) throw new InvalidDataError('pack', 'not a whole zlib stream');
    const produced = output.length - (stream._writeState[0] ?? 0);
    stream._handle.reset();
    return produced === size ? output.subarray(0, size) : null;
  }

  /** Whether entries go through one reused stream (else through `zlib.inflateSync`): for diagnostics and tests. */
  inflatesThroughOneStream(): boolean {
    return this.sharedStream() !== null;
  }

  /** The reused stream, opened again after an error destroyed it; null when this Node's cannot be driven. */
  private sharedStream(): DrivableStream | null {
    if (this.shared === undefined || this.shared?.destroyed === true) this.shared = openStream();
    return this.shared;
  }
}

function openStream(): DrivableStream | null {
  const stream = new Inflate() as unknown as DrivableInflate;
  // Errors are read synchronously from `destroyed`; the stream's own 'error' event would
  // otherwise be an uncaught exception a tick later.
  stream.on('error', () => undefined);
  return drivable(stream) ? stream : null;
}

function drivable(stream: DrivableInflate): stream is DrivableStream {
  return (
    typeof stream._handle?.writeSync === 'function' &&
    typeof stream._handle.reset === 'function' &&
    ArrayBuffer.isView(stream._writeState) &&
    stream._writeState.length === 2
  );
}

/** The same answer through `zlib.inflateSync`. */
function inflateOnce(compressed: Buffer, size: number): Buffer | null {
  let data: Buffer;
  try {
    data = inflateSync(compressed, { maxOutputLength: Math.max(size, 1), chunkSize: Math.min(MAX_FALLBACK_CHUNK, Math.max(64, size + 1)) });
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw new InvalidDataError('pack', 'not a whole zlib stream');
  }
  return data.length === size ? data : null;
}
