import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under os.tmpdir() (`forge-…`); remove it with {@link removeTempDir}. */
export function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'forge-'));
}

/**
 * Removes a directory made by {@link makeTempDir}. A process that has just exited may have left
 * children still writing into it (a browser's helpers into its profile): a folder that gains a
 * file while it is removed is removed again, a few times.
 */
export function removeTempDir(dir: string | undefined): Promise<void> {
  return dir === undefined ? Promise.resolve() : rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/** A short, unique Unix socket path directly in os.tmpdir() (sockaddr_un holds 108 bytes). */
export function tempSocketPath(label: string): string {
  return join(tmpdir(), `forge-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);
}
