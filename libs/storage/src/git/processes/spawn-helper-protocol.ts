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
  /**
   * This spawn's own environment. Every request carries its own: the helper starts git only
   * once the connections have arrived, by which time other spawns (other repositories, other
   * protocol versions) may have been requested.
   */
  readonly env: NodeJS.ProcessEnv;
}

/** The server's messages. */
export type ServerMessage = SpawnRequest | { readonly t: 'kill'; readonly id: string; readonly signal: NodeJS.Signals };

/** The helper's messages. */
export type HelperMessage =
  | { readonly t: 'listening' }
  | { readonly t: 'spawned'; readonly id: string; readonly pid: number }
  | { readonly t: 'exit'; readonly id: string; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly t: 'error'; readonly id: string; readonly message: string; readonly code: string | undefined };
