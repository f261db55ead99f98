/**
 * Wire types of files (api.md "Blob", operations 17–18; behaviour.md B §4.5).
 */
import type { Commit } from './commit.js';

/** `GET /repos/{rid}/blob/{sha}/{path}` and `GET /repos/{rid}/readme/{sha}`. */
export interface Blob {
  /** git's binary heuristic (Part A), independent of the content encoding. */
  binary: boolean;
  name: string;
  /** UTF-8 text when the bytes are valid UTF-8, else standard base64. */
  content: string;
  path: string;
  /** Newest commit, walking back from the requested one, that changed the path. */
  lastCommit: Commit;
}
