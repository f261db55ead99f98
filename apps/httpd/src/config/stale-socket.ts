import { lstat, unlink } from 'node:fs/promises';

/**
 * Removes a leftover Unix socket file before listening on its path (docs/radicle-httpd.md §7.2);
 * refuses to delete anything that is not a socket.
 * @throws Error when the path exists and is not a socket
 */
export async function removeStaleSocket(path: string): Promise<void> {
  const stat = await lstat(path).catch(() => null);
  if (stat === null) return;
  if (!stat.isSocket()) throw new Error(`--listen ${path}: exists and is not a socket`);
  await unlink(path);
}
