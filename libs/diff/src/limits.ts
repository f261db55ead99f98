/**
 * Size bounds for diffs served over the API (documented in libs/diff/README.md). They keep a
 * commit with huge files or thousands of files from exhausting memory.
 */

/** Bytes of git's diff output read per diff; files past the cut get content `tooLarge`. */
export const DIFF_PATCH_MAX_BYTES = 8 * 1024 * 1024;

/** A blob larger than this is left out of a diff's `files` map (fetch it with the blob route). */
export const DIFF_FILES_BLOB_MAX_BYTES = 1024 * 1024;

/** Total blob bytes embedded in one `files` map; blobs beyond it (by oid order) are left out. */
export const DIFF_FILES_TOTAL_MAX_BYTES = 8 * 1024 * 1024;
