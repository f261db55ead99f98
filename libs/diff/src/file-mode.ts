/**
 * git file modes (git `cache.h` S_IF* canonical modes) and their API names.
 */
import type { FileMode } from './types.js';

/**
 * Names a git mode as the API does.
 * @param gitMode - octal mode text from git's raw output, e.g. `100755`
 * @returns `blob`, `blobExecutable`, `tree`, `link` or `commit`
 */
export function fileModeOf(gitMode: string): FileMode {
  const mode = Number.parseInt(gitMode, 8);
  // The type lives in the bits above the permission bits (S_IFMT = 0170000).
  switch (mode & 0o170000) {
    case 0o040000:
      return 'tree';
    case 0o120000:
      return 'link';
    case 0o160000:
      return 'commit';
    default:
      return (mode & 0o111) !== 0 ? 'blobExecutable' : 'blob';
  }
}
