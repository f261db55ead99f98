import { compareUtf8 } from '@forge-httpd/identity';
import { isOid, type Oid, ZERO_OID } from '../git/oid.js';

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
  const text = blob.toString('utf8');
  if (text === '') return refs;
  if (!text.endsWith('\n')) return null;
  for (const line of text.slice(0, -1).split('\n')) {
    const oid = line.slice(0, 40);
    const name = line.slice(41);
    if (!isOid(oid) || line[40] !== ' ' || name === '' || refs.has(name)) return null;
    refs.set(name, oid);
  }
  return refs;
}
