/**
 * Files (docs/api.md "Blob", operations 17–18; docs/radicle-httpd.md §4.5).
 */
import * as v from 'valibot';
import { commitSchema } from './commit.js';

/** `GET /repos/{rid}/blob/{sha}/{path}` and `GET /repos/{rid}/readme/{sha}`. */
export const blobSchema = v.object({
  /** git's binary heuristic (docs/decisions.md), independent of the content encoding. */
  binary: v.boolean(),
  name: v.string(),
  /** UTF-8 text when the bytes are valid UTF-8, else standard base64. */
  content: v.string(),
  path: v.string(),
  /** Newest commit, walking back from the requested one, that changed the path. */
  lastCommit: commitSchema,
});
export type Blob = v.InferOutput<typeof blobSchema>;
