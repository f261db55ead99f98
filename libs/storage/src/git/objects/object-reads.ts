/**
 * What the in-process object reads of every repository of a {@link StorageRuntime} share: the
 * bound on repositories whose packs stay open, recently rebuilt delta bases, one read buffer,
 * one inflate stream, one budget for big pack indexes' tables, and the thread-load signal that
 * decides whether a read stays in process.
 */
import { BoundedCache } from '@forge-httpd/bounded-cache';
import { LiveProcessLimit } from '../limits/live-process-limit.js';
import { ThreadLoad } from '../limits/thread-load.js';
import { EntryInflater } from './entry-inflater.js';
import type { GitObjectType } from './object-type.js';
import { HeldIndexBytes, SharedReadBuffer } from './pack-index.js';

/** An object read from the files: its type and content. */
export interface StoredObject {
  readonly type: GitObjectType;
  readonly data: Buffer;
}

/** Shared by the object files of every repository of a runtime. */
export class ObjectReads {
  /** Repositories whose pack files stay open at once (one descriptor per pack, and one per big index). */
  readonly openPacks = new LiveProcessLimit(32);
  /**
   * Delta bases rebuilt recently: neighbouring objects of a chain share bases, and git keeps
   * such a cache too (`core.deltaBaseCacheLimit`). Keyed by pack path and offset.
   */
  readonly deltaBases = new BoundedCache<string, StoredObject>({ maxWeight: 16 * 1024 * 1024, weigh: (object) => object.data.length + 64 });
  /** The buffer pack and index reads share (reads are synchronous on this thread). */
  readonly readBuffer = new SharedReadBuffer();
  /** The inflate stream pack entries share. */
  readonly inflater = new EntryInflater();
  /** Bytes of hot pack indexes' tables held in memory, against their budget. */
  readonly heldIndexBytes = new HeldIndexBytes();
  /**
   * Whether the event loop is too busy for reads in process: busy above 80 % over 20 ms (with
   * every read made in process, a crawl lost a large share of its pages per second; this switch
   * kept them).
   */
  readonly threadLoad = new ThreadLoad(0.8, 20);
}
