/** Whether the response cache answered: a hit, a miss it may store, or not a cached route. */
export type CacheOutcome = 'hit' | 'miss' | null;

/** One finished request, as logged and counted. */
export interface RequestRecord {
  readonly id: string;
  readonly method: string;
  /** The route pattern (`/api/v1/repos/:rid`), or `-` when no route matched. */
  readonly route: string;
  /** The request target as received (path and query). */
  readonly url: string;
  readonly status: number;
  readonly durationMs: number;
  /** Body bytes (`content-length`), else bytes written to the socket for the answer; null if unknown. */
  readonly bytes: number | null;
  readonly cache: CacheOutcome;
  /** The client's address (see `clientAddressOf`). */
  readonly ip: string | undefined;
}

/** Route label of requests that matched no route (a 404, or refused before routing). */
export const UNMATCHED_ROUTE = '-';
