/**
 * What a serving worker tells the primary process over the cluster channel (`--workers N`).
 * Only facts the primary logs or answers `/readyz` with; never request data.
 */
export interface WorkerReadyMessage {
  readonly type: 'forge-worker-ready';
  /** Repositories in the worker's storage index when its warm-up finished. */
  readonly repositories: number;
  /** Requests the worker's warm-up made. */
  readonly warmUpRequests: number;
}

/** Builds the message a worker sends once its start-up work is done. */
export function workerReadyMessage(repositories: number, warmUpRequests: number): WorkerReadyMessage {
  return { type: 'forge-worker-ready', repositories, warmUpRequests };
}

/** Whether a message from a worker is {@link WorkerReadyMessage}. */
export function isWorkerReadyMessage(message: unknown): message is WorkerReadyMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'forge-worker-ready';
}
