import { PassThrough, type Readable } from 'node:stream';
import type { GitServerPool } from './git-server-pool.js';

/** Which half of git's smart HTTP protocol to run (gitprotocol-http(5)). */
export type UploadPackMode = 'advertise' | 'serve';

/** Input of {@link uploadPack}. */
export interface UploadPackRequest {
  /** The repository's git directory, from storage (never from the request). */
  readonly gitDir: string;
  /** `advertise`: the `info/refs` answer; `serve`: answer one request body. */
  readonly mode: UploadPackMode;
  /** A peer's namespace (a NID already parsed): only `refs/namespaces/<nid>/…` are served. */
  readonly namespace?: string;
  /** Protocol version the client asked for (the `Git-Protocol` header); 0 when absent. */
  readonly protocolVersion: 0 | 1 | 2;
  /** The request body (already decompressed) in `serve` mode. */
  readonly body?: Readable;
}

/**
 * Server configuration of every upload-pack: clients may fetch any commit by id (git's
 * `fetch <oid>`, as radicle-httpd allows) and use partial clone filters; pack-objects runs on
 * one thread so concurrent clones leave CPU for the API.
 */
const UPLOAD_PACK_CONFIG = ['-c', 'safe.directory=*', '-c', 'uploadpack.allowAnySHA1InWant=true', '-c', 'uploadpack.allowFilter=true', '-c', 'pack.threads=1'];

/**
 * Without a namespace the repository's own top-level refs are advertised (the canonical
 * branches and tags, `HEAD`, `refs/rad/id`); every peer's refs stay in its own namespace URL.
 */
const TOP_LEVEL_CONFIG = ['-c', 'uploadpack.hideRefs=refs/namespaces/'];

/**
 * Runs `git upload-pack --stateless-rpc`, the server side of a clone or fetch over smart HTTP,
 * in a slot of `pool`. In `advertise` mode the output is the smart HTTP `info/refs` body: for
 * protocol v0/v1 the `# service=git-upload-pack` packet and a flush, then the ref
 * advertisement; for v2 the capability advertisement alone (gitprotocol-http(5), as
 * `git http-backend` writes it).
 * @param pool - bounds of git server processes
 * @param request - repository, mode, namespace, protocol version and body
 * @returns git's output, streamed
 * @throws BusyError when the pool is full
 */
export function uploadPack(pool: GitServerPool, request: UploadPackRequest): Readable {
  // A commit-graph of ours, where the server keeps one, shortens the walk that counts a clone's objects.
  const env = pool.processes.overlays.environment(request.gitDir, 'packing');
  if (request.protocolVersion !== 0) env['GIT_PROTOCOL'] = `version=${request.protocolVersion}`;
  if (request.namespace !== undefined) env['GIT_NAMESPACE'] = request.namespace;
  const args = [
    ...UPLOAD_PACK_CONFIG,
    ...(request.namespace === undefined ? TOP_LEVEL_CONFIG : []),
    'upload-pack',
    '--stateless-rpc',
    '--strict',
    ...(request.mode === 'advertise' ? ['--advertise-refs'] : []),
    request.gitDir,
  ];
  const output = pool.start({ args, env, stdin: request.mode === 'serve' ? request.body : undefined, failOnExit: false });
  return request.mode === 'advertise' && request.protocolVersion !== 2 ? prefixed(SERVICE_PACKET, output) : output;
}

/** pkt-line `# service=git-upload-pack\n` (length 0x1e) and a flush packet. */
const SERVICE_PACKET = Buffer.from('001e# service=git-upload-pack\n0000');

/** `head` then `rest`; destroying the result destroys `rest` (and so kills its process). */
function prefixed(head: Buffer, rest: Readable): Readable {
  const output = new PassThrough();
  output.write(head);
  rest.pipe(output);
  rest.on('error', (error) => output.destroy(error));
  output.on('close', () => rest.destroy());
  return output;
}
