import { createHash } from 'node:crypto';

/**
 * Text that does not compress: the hex of chained SHA-256s of `seed`, `bytes` long. For files
 * whose answers must be as big on the wire as on disk.
 */
export function noiseText(seed: string, bytes: number): string {
  const parts: string[] = [];
  let digest = Buffer.from(seed);
  for (let length = 0; length < bytes; length += 64) {
    digest = createHash('sha256').update(digest).digest();
    parts.push(digest.toString('hex'));
  }
  return parts.join('').slice(0, bytes);
}
