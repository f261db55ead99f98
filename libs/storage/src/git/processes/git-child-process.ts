import type { Readable, Writable } from 'node:stream';

/**
 * A running git process as its readers use it: what Node's `ChildProcess` with three pipes
 * offers and they need, whether git was started directly or by the spawn helper.
 */
export interface GitChildProcess {
  /** Known once git runs; undefined while it starts, or when it could not start. */
  readonly pid: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  /** git runs (its pid is known). */
  once(event: 'spawn', listener: () => void): this;
  once(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
}
