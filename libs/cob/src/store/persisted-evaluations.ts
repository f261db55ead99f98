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

/** One evaluated object as persisted. */
export interface PersistedEvaluation {
  readonly id: Oid;
  /** The object's tips, ascending, comma-separated. */
  readonly tipsKey: string;
  /** Refs the evaluation consulted (name → oid, null when absent). */
  readonly deps: ReadonlyMap<string, Oid | null>;
  /** The evaluated view (`Issue`, `Patch`, …), null for an invalid object. */
  readonly value: unknown;
}

/**
 * Persisted evaluations, synchronous by design (reads happen once per scope and process, writes
 * are batched). Implementations must not throw: a place that fails reads as empty.
 */
export interface PersistedEvaluations {
  /** Every entry of a scope (an empty map when none or unreadable). */
  readAll(scope: EvaluationScope): ReadonlyMap<Oid, PersistedEvaluation>;
  /** One entry, or null. */
  read(scope: EvaluationScope, id: Oid): PersistedEvaluation | null;
  /** Replaces the entries of these objects. */
  write(scope: EvaluationScope, entries: readonly PersistedEvaluation[]): void;
  /** Every scope with entries and how many it holds (e.g. to choose what to load at start-up). */
  listScopes(): ReadonlyArray<{ readonly scope: EvaluationScope; readonly objects: number }>;
}
