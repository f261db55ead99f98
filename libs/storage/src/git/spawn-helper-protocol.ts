/**
 * Messages between the server and its git spawn helper process (IPC, JSON). Only process
 * control travels here; git's data flows over the stdio connections, never through IPC.
 */

/** Start `file args` once the spawn's three stdio connections have arrived. */
export interface SpawnRequest {
  readonly t: 'spawn';
  readonly id: string;
  readonly file: string;
  readonly args: readonly string[];
}

/** The server's messages. `env` is sent only when it changed since the last spawn. */
export type ServerMessage =
  { readonly t: 'env'; readonly env: NodeJS.ProcessEnv } | SpawnRequest | { readonly t: 'kill'; readonly id: string; readonly signal: NodeJS.Signals };

/** The helper's messages. */
export type HelperMessage =
  | { readonly t: 'listening' }
  | { readonly t: 'spawned'; readonly id: string; readonly pid: number }
  | { readonly t: 'exit'; readonly id: string; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly t: 'error'; readonly id: string; readonly message: string; readonly code: string | undefined };
