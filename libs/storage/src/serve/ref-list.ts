import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { gitArguments } from '../git/processes/git-command.js';
import type { GitServerPool } from './git-server-pool.js';

/** Input of {@link refList}. */
export interface RefListRequest {
  /** The repository's git directory, from storage (never from the request). */
  readonly gitDir: string;
  /** A peer's namespace (a NID already parsed): its refs, named without the namespace prefix. */
  readonly namespace?: string;
}

/** Each ref as `oid TAB name`, and for an annotated tag a second line with the object it peels to. */
const FORMAT = '%(objectname)%09%(refname)%(if)%(*objectname)%(then)%0a%(*objectname)%09%(refname)^{}%(end)';
const NAMESPACES = 'refs/namespaces/';

/**
 * The dumb HTTP protocol's ref list (`info/refs` without a service), as `git http-backend`
 * writes it: one `{oid}\t{ref}\n` line per ref in ref-name order, followed for an annotated
 * tag by `{peeled oid}\t{ref}^{}\n`. Without a namespace the repository's top-level refs
 * (peers' namespaces left out, as in the smart advertisement); with one, that peer's refs.
 * @returns the text, streamed; destroying it kills git
 * @throws BusyError when the pool is full
 */
export function refList(pool: GitServerPool, request: RefListRequest): Readable {
  const prefix = request.namespace === undefined ? 'refs/' : `${NAMESPACES}${request.namespace}/refs/`;
  const args = gitArguments(request.gitDir, ['for-each-ref', `--format=${FORMAT}`, '--end-of-options', prefix]);
  const output = pool.start({ args, failOnExit: true });
  const lines = new RefLines(request.namespace === undefined ? null : `${NAMESPACES}${request.namespace}/`);
  output.on('error', (error) => lines.destroy(error));
  lines.on('close', () => output.destroy());
  return output.pipe(lines);
}

/** Keeps whole lines; drops namespaced refs at the top level, strips the namespace otherwise. */
class RefLines extends Transform {
  private rest = '';

  constructor(private readonly strip: string | null) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = this.rest + chunk.toString('latin1');
    const end = text.lastIndexOf('\n');
    this.rest = text.slice(end + 1);
    done(null, end === -1 ? undefined : this.render(text.slice(0, end + 1)));
  }

  override _flush(done: TransformCallback): void {
    done(null, this.rest === '' ? undefined : this.render(`${this.rest}\n`));
  }

  private render(text: string): Buffer {
    let kept = '';
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const tab = line.indexOf('\t');
      const name = line.slice(tab + 1);
      if (this.strip === null) {
        if (!name.startsWith(NAMESPACES)) kept += `${line}\n`;
      } else if (name.startsWith(this.strip)) {
        kept += `${line.slice(0, tab + 1)}${name.slice(this.strip.length)}\n`;
      }
    }
    // latin1 both ways: ref names are bytes, passed through unchanged.
    return Buffer.from(kept, 'latin1');
  }
}
