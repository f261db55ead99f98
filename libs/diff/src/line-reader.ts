/**
 * A cursor over newline-terminated lines of a buffer, without copying.
 */

/** One line: `[start, end)` excludes the newline; `terminated` is false for a cut last line. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
  readonly terminated: boolean;
}

/** Reads lines from `start` to the end of `bytes`. */
export class LineReader {
  private at: number;

  constructor(
    readonly bytes: Buffer,
    start: number,
  ) {
    this.at = start;
  }

  /** True when every byte has been consumed. */
  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  /** Consumes everything that is left. */
  skipToEnd(): void {
    this.at = this.bytes.length;
  }

  /**
   * Looks at the next line without consuming it.
   * @returns the line, or null at the end of input
   */
  peek(): LineSpan | null {
    if (this.done) return null;
    const newline = this.bytes.indexOf(0x0a, this.at);
    return newline < 0 ? { start: this.at, end: this.bytes.length, terminated: false } : { start: this.at, end: newline, terminated: true };
  }

  /**
   * Consumes the next line.
   * @returns the line, or null at the end of input
   */
  next(): LineSpan | null {
    const line = this.peek();
    if (line !== null) this.at = line.terminated ? line.end + 1 : line.end;
    return line;
  }

  /**
   * Tells whether the next line starts with `prefix` (ASCII, compared byte by byte without
   * allocating: this runs for every line of a diff).
   * @param prefix - ASCII text without newline
   * @returns false at the end of input
   */
  nextStartsWith(prefix: string): boolean {
    if (this.at + prefix.length > this.bytes.length) return false;
    for (let index = 0; index < prefix.length; index++) {
      if (this.bytes[this.at + index] !== prefix.charCodeAt(index)) return false;
    }
    return true;
  }
}
