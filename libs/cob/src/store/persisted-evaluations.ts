/**
 * The contract between a {@link CobStore} and a place its evaluations outlive the process.
 * An entry is only ever used when its recorded tips and consulted refs equal the repository's
 * current ones (the store checks, exactly as for its in-memory entries), so a persisted entry
 * cannot be stale; the place must only hand back what it was given, or nothing.
 */
import type { Flavour, Oid } from '@forge-httpd/storage';

/** Which objects an entry belongs to: one repository, one COB type, one protocol flavour. */
export interface EvaluationScope {
  readonly rid: string;
  /** e.g. `xyz.radicle.issue`. */
  readonly typeName: string;
  /** The flavour also decides payload ids a fold reads (e.g. the project's default branch). */
  readonly flavour: Flavour;
}

/** What a listing sorts and filters an object by, kept apart from its whole view. */
export interface ListingFacts {
  /** The view's `timestamp` (its root change's time), in seconds. */
  readonly timestamp: number;
  /** The view's `state.status`, e.g. `open`. */
  readonly status: string;
}

/** The consulted refs of every entry that consulted none (most issues): one map, not thousands. */
export const NO_CONSULTED_REFS: ReadonlyMap<string, Oid | null> = new Map();

/** One evaluated object as persisted. */
export interface PersistedEvaluation {
  readonly id: Oid;
  /** The object's tips, ascending, comma-separated. */
  readonly tipsKey: string;
  /** Refs the evaluation consulted (name → oid, null when absent). */
  readonly deps: ReadonlyMap<string, Oid | null>;
  /** The view's listing facts, null for an invalid object. */
  readonly listed: ListingFacts | null;
  /**
   * The evaluated view (`Issue`, `Patch`, …), null for an invalid object; undefined when it
   * was not read (see {@link PersistedEvaluations.readAll}).
   */
  readonly value: unknown;
}

/**
 * Persisted evaluations, synchronous by design (reads happen once per scope and process, or
 * once per object asked for; writes are batched). Implementations must not throw: a place that
 * fails reads as empty.
 */
export interface PersistedEvaluations {
  /**
   * Every entry of a scope without its view (an empty map when none or unreadable): what a
   * listing needs to sort and filter; a page then reads its objects' views with {@link read}.
   * An invalid object's value is null, every other's undefined.
   */
  readAll(scope: EvaluationScope): ReadonlyMap<Oid, PersistedEvaluation>;
  /** One entry with its view, or null. */
  read(scope: EvaluationScope, id: Oid): PersistedEvaluation | null;
  /**
   * Replaces the entries of these objects (each with its view).
   * @returns true when they were written, so the caller may let the views go
   */
  write(scope: EvaluationScope, entries: readonly PersistedEvaluation[]): boolean;
  /** Every scope with entries and how many it holds (e.g. to choose what to load at start-up). */
  listScopes(): ReadonlyArray<{ readonly scope: EvaluationScope; readonly objects: number }>;
}
