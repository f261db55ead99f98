import { compareUtf8 } from '@forge-httpd/identity';
import { AFTER_LINE_OID, forEachLine, lineOid } from '../git/objects/buffer-lines.js';
import { type Oid, ZERO_OID } from '../git/objects/oid.js';

/** The ref holding a peer's signed refs, relative to its namespace (docs/node-home.md §5). */
export const SIGREFS_REF = 'refs/rad/sigrefs';

/** The ≥1.7 pseudo-ref naming the previous sigrefs commit; not a real ref (§5). */
export const SIGREFS_PARENT_REF = 'refs/rad/sigrefs-parent';

/**
 * Renders the `refs` blob of a sigrefs commit (docs/node-home.md §5): one `"<oid> <name>\n"` line
 * per ref, sorted by name bytes. `refs/rad/sigrefs` itself and zero oids are left out.
 * @param refs - namespace-relative ref names (`refs/heads/main`) and their oids
 * @returns the blob bytes that get signed
 */
export function formatSignedRefs(refs: ReadonlyMap<string, Oid> | Iterable<[string, Oid]>): Buffer {
  const entries = [...refs].filter(([name, oid]) => name !== SIGREFS_REF && oid !== ZERO_OID).sort(([a], [b]) => compareUtf8(a, b));
  return Buffer.from(entries.map(([name, oid]) => `${oid} ${name}\n`).join(''), 'utf8');
}

/**
 * Parses a `refs` blob. Returns null when any line is not `<40-hex> <name>` (such a blob
 * cannot have been produced by a conforming writer, so it is treated as unverifiable).
 */
export function parseSignedRefsBlob(blob: Buffer): Map<string, Oid> | null {
  const refs = new Map<string, Oid>();
  if (blob.length === 0) return refs;
  if (blob[blob.length - 1] !== NEWLINE) return null;
  let wellFormed = true;
  // Fields decoded one by one: names and ids outlive the blob (evaluated patches keep the
  // names of their revisions' refs), and substrings of one decoded text would keep it alive.
  forEachLine(blob, (start, end) => {
    if (!wellFormed) return;
    const oid = lineOid(blob, start, end, SPACE);
    if (oid === null) {
      wellFormed = false;
      return;
    }
    // A name listed twice leaves the size as it was (one lookup a line, not two).
    const size = refs.size;
    refs.set(blob.toString('utf8', start + AFTER_LINE_OID, end), oid);
    if (refs.size === size) wellFormed = false;
  });
  return wellFormed ? refs : null;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
