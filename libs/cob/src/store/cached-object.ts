/**
 * What the COB store keeps and its snapshots read: one object's cached evaluation, the root
 * times listings are ordered by, and a kind's derived listings.
 */
import type { Oid } from '@forge-httpd/storage';
import type { CobRefIndex } from '../read/cob-ref-index.js';
import type { ListingFacts } from './persisted-evaluations.js';

/** A cached evaluation of one object. */
export interface CachedObject<V> {
  readonly id: Oid;
  readonly tipsKey: string;
  /** Refs consulted (name → oid, null when absent). */
  readonly deps: ReadonlyMap<string, Oid | null>;
  /** What listings sort and filter by; null when the object is invalid or of a kind never listed (jobs). */
  readonly listed: ListingFacts | null;
  /**
   * The view, null when the object is invalid (missing or rejected root). Undefined once the
   * view was persisted and let go: the store's `valueOf` reads it back.
   */
  value: V | null | undefined;
}

/** An object id with its root change's time: what listings are sorted by. */
export interface RootTime {
  readonly id: Oid;
  /** Committer time of the root commit (the object id), in seconds. */
  readonly time: number;
}

/** Derived listings of one COB kind. */
export interface ListingMemo {
  readonly entries: readonly CachedObject<unknown>[];
  /** The last ref index these entries were found current for. */
  index: CobRefIndex;
  readonly derived: Map<string, unknown>;
}
