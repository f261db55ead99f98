import { isUtf8 } from 'node:buffer';
import mime from 'mime';
import { isBinaryContent } from '@forge-httpd/diff';

/** Types a browser shows as text (or safely renders under the raw routes' sandbox CSP). */
const TEXT_TYPES = new Set(['application/json', 'application/javascript', 'application/xml', 'image/svg+xml']);

/**
 * The `content-type` of a raw file: the MIME table's type for the file name (npm `mime`), but
 * for text content only a textual type; source files whose extension the table gives to
 * something else (`.ts` → video/mp2t, `.rs` → application/rls-services+xml) and files without a
 * known extension are `text/plain`. Binary content with an unknown name is
 * `application/octet-stream`. Valid UTF-8 text says so (`; charset=utf-8`).
 * @param name - the file name (last path segment), or null for a blob fetched by id
 * @param bytes - the content
 */
export function rawContentType(name: string | null, bytes: Buffer): string {
  const listed = name === null ? null : mime.getType(name);
  if (isBinaryContent(bytes)) return listed ?? 'application/octet-stream';
  const textual = listed !== null && (listed.startsWith('text/') || TEXT_TYPES.has(listed)) ? listed : 'text/plain';
  return isUtf8(bytes) ? `${textual}; charset=utf-8` : textual;
}
