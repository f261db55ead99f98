/**
 * Incremental, binary-safe parser for `git cat-file --batch-command` output:
 * `<oid> <type> <size>\n` (+ `<size>` content bytes and `\n` for `contents`), or
 * `<name> missing\n` / `<name> ambiguous\n`. Content is copied once into a buffer of the
 * announced size, so large blobs are not re-concatenated chunk by chunk.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import { isGitObjectType, type GitObjectType } from '../objects/object-type.js';
import type { Oid } from '../objects/oid.js';
import { keptBytes } from '../objects/kept-bytes.js';

const EMPTY = Buffer.alloc(0);

/** One parsed answer; `data` only for `contents` requests. */
export type BatchAnswer =
  { readonly found: false } | { readonly found: true; readonly oid: Oid; readonly type: GitObjectType; readonly size: number; readonly data?: Buffer };

interface BodyState {
  readonly header: { oid: Oid; type: GitObjectType; size: number };
  readonly data: Buffer;
  filled: number;
}

/** Parses answers in order; asks `wantsContent()` whether the next answer carries content. */
export class BatchResponseParser {
  private partial: Buffer = EMPTY;
  private body: BodyState | undefined;

  constructor(
    private readonly wantsContent: () => boolean,
    private readonly onAnswer: (answer: BatchAnswer) => void,
  ) {}

  /** True while an answer has begun and not ended (a header line or content in part). */
  isMidAnswer(): boolean {
    return this.body !== undefined || this.partial.length > 0;
  }

  /** Feeds one stdout chunk; calls `onAnswer` for every completed answer. */
  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      offset = this.body !== undefined ? this.readBody(chunk, offset) : this.readHeader(chunk, offset);
    }
  }

  private readHeader(chunk: Buffer, offset: number): number {
    const newline = chunk.indexOf(0x0a, offset);
    if (newline < 0) {
      this.partial = Buffer.concat([this.partial, chunk.subarray(offset)]);
      return chunk.length;
    }
    // A header line is rarely split across chunks: then it is decoded in place.
    const line =
      this.partial.length === 0 ? chunk.toString('latin1', offset, newline) : Buffer.concat([this.partial, chunk.subarray(offset, newline)]).toString('latin1');
    this.partial = EMPTY;
    this.handleHeader(line);
    return newline + 1;
  }

  private handleHeader(line: string): void {
    if (line.endsWith(' missing') || line.endsWith(' ambiguous')) {
      this.onAnswer({ found: false });
      return;
    }
    const match = /^([0-9a-f]{40}) ([a-z]+) ([0-9]+)$/.exec(line);
    const type = match?.[2] ?? '';
    if (match === null || !isGitObjectType(type)) {
      throw new InvalidDataError('object', `unexpected cat-file output: ${line.slice(0, 80)}`);
    }
    const header = { oid: match[1] as Oid, type, size: Number(match[3]) };
    if (!this.wantsContent()) {
      this.onAnswer({ found: true, ...header });
      return;
    }
    this.body = { header, data: keptBytes(header.size), filled: 0 };
  }

  private readBody(chunk: Buffer, offset: number): number {
    const body = this.body as BodyState;
    const size = body.data.length;
    if (body.filled < size) {
      const end = Math.min(chunk.length, offset + size - body.filled);
      chunk.copy(body.data, body.filled, offset, end);
      body.filled += end - offset;
      return end;
    }
    // git ends the content with one LF; anything else means the announced size was wrong
    // (seen with corrupt loose objects) and the stream can no longer be trusted.
    if (chunk[offset] !== 0x0a) throw new InvalidDataError('object', 'cat-file content not terminated by LF');
    this.body = undefined;
    this.onAnswer({ found: true, ...body.header, data: body.data });
    return offset + 1;
  }
}
