import { spawnSync } from 'node:child_process';
import { crc32, deflateSync } from 'node:zlib';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import type { Oid } from '@forge-httpd/storage';
import type { ScratchChange, ScratchCommit } from '@forge-httpd/builder/scratch';
import { ABSENT_RID, getBytes, readZipEntries, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const LIMIT = 10_485_760;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A 2×1 RGB PNG written from its chunks (PNG spec §5), so the fixture has a recipe. */
function pngImage(): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const pixels = deflateSync(Buffer.from([0, 255, 0, 0, 0, 0, 255]));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const PNG = pngImage();
const FILES: ScratchChange[] = [
  { path: 'README.md', content: '# Raw\n' },
  { path: 'src/main.ts', content: 'export const x = 1;\n' },
  { path: 'page.html', content: '<!doctype html><script>document.title = "owned"</script>\n' },
  { path: 'logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n' },
  { path: 'image.png', content: PNG },
  { path: 'Makefile', content: 'all:\n\ttrue\n' },
  { path: 'latin1.txt', content: Buffer.from('caf\xe9\n', 'latin1') },
  { path: 'exact.txt', content: 'x'.repeat(LIMIT) },
  { path: 'big.bin', content: Buffer.alloc(LIMIT + 1024 * 1024, 7) },
];
const COMMITS: ScratchCommit[] = [
  { message: 'Add files\n', time: T, changes: FILES },
  { message: 'Edit the readme\n', time: T + 100, changes: [{ path: 'README.md', content: '# Raw\n\nEdited.\n' }] },
];

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'files', seed: 'aa'.repeat(32), time: T, commits: COMMITS });
  ({ built, server, ids } = scratch);
}, 60_000);
afterAll(() => scratch?.close());

const rid = (name = 'files'): string => repositoryByName(built, name).rid;
const raw = (path: string, name = 'files'): string => `${server.baseUrl}/raw/${rid(name)}${path}`;
const first = (): string => ids[0] as string;
const text = async (url: string, init?: RequestInit) => {
  const response = await getBytes(url, init);
  return { ...response, text: response.bytes.toString('utf8') };
};

function listTar(bytes: Buffer, gzip: boolean): string[] {
  const result = spawnSync('tar', [gzip ? '-tzf' : '-tf', '-'], { input: bytes });
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.toString()}`);
  return result.stdout
    .toString()
    .split('\n')
    .filter((line) => line !== '')
    .sort();
}

function readTarFile(bytes: Buffer, path: string): string {
  return spawnSync('tar', ['-xzOf', '-', path], { input: bytes }).stdout.toString();
}

describe('GET /raw/{rid}/{sha}/{path}', () => {
  it('serves the file bytes with an immutable cache, an ETag and the sandbox headers', async () => {
    const response = await text(raw(`/${first()}/README.md`));
    expect(response.status).toBe(200);
    expect(response.text).toBe('# Raw\n');
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-encoding')).toBeNull();
  });

  it.each([
    ['image.png', 'image/png'],
    ['page.html', 'text/html; charset=utf-8'],
    ['logo.svg', 'image/svg+xml; charset=utf-8'],
    ['src/main.ts', 'text/plain; charset=utf-8'],
    ['Makefile', 'text/plain; charset=utf-8'],
    ['latin1.txt', 'text/plain'],
  ])('serves %s as %s', async (path, type) => {
    const response = await getBytes(raw(`/${first()}/${path}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it('serves the image byte for byte', async () => {
    expect((await getBytes(raw(`/${first()}/image.png`))).bytes.equals(PNG)).toBe(true);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const { headers } = await getBytes(raw(`/${first()}/README.md`));
    const etag = headers.get('etag') ?? '';
    const response = await text(raw(`/${first()}/README.md`), { headers: { 'if-none-match': etag } });
    expect(response.status).toBe(304);
    expect(response.text).toBe('');
    expect(response.headers.get('etag')).toBe(etag);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await getBytes(raw(`/${first()}/image.png`));
    const head = await getBytes(raw(`/${first()}/image.png`), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
  });

  it('serves a file of exactly 10 MiB', async () => {
    const response = await getBytes(raw(`/${first()}/exact.txt`));
    expect(response.status).toBe(200);
    expect(response.bytes.length).toBe(LIMIT);
  });

  it('answers 413 with the JSON error body above 10 MiB', async () => {
    const response = await text(raw(`/${first()}/big.bin`));
    expect(response.status).toBe(413);
    expect(response.text).toBe('{"error":"Payload Too Large","code":413}');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['an unknown path', () => `/${first()}/nope.txt`],
    ['a directory', () => `/${first()}/src`],
    ['an empty path', () => `/${first()}/`],
    ['an unknown commit', () => `/${'0'.repeat(40)}/README.md`],
  ])('answers 404 for %s', async (_case, path) => {
    const response = await text(raw(path()));
    expect(response.status).toBe(404);
    expect(response.text).toBe(NOT_FOUND);
  });

  it('answers 400 for a malformed commit id or rid', async () => {
    expect((await text(raw('/abc/README.md'))).text).toBe('{"error":"Invalid sha: expected 40 hexadecimal characters","code":400}');
    expect((await text(`${server.baseUrl}/raw/nope/${first()}/README.md`)).status).toBe(400);
  });
});

describe('GET /raw/{rid}/head/{path}', () => {
  it('serves the file at the canonical head, without an immutable cache', async () => {
    const response = await text(raw('/head/README.md'));
    expect(response.status).toBe(200);
    expect(response.text).toBe('# Raw\n\nEdited.\n');
    expect(response.headers.get('cache-control')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
  });
});

describe('GET /raw/{rid}/blobs/{oid}', () => {
  it('serves a blob by id, immutable, typed by its content', async () => {
    const { headers } = await getBytes(raw(`/${first()}/README.md`));
    const oid = (headers.get('etag') ?? '').slice(1, -1);
    const response = await text(raw(`/blobs/${oid}`));
    expect(response.text).toBe('# Raw\n');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
  });

  it('answers 404 for an id that is not a blob', async () => {
    expect((await text(raw(`/blobs/${first()}`))).text).toBe(NOT_FOUND);
  });
});

describe('archives', () => {
  it('streams a tar.gz of a commit under <name>-<sha>/ with an attachment name', async () => {
    const response = await getBytes(raw(`/${first()}.tar.gz`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="files-${first()}.tar.gz"`);
    expect(response.headers.get('content-encoding')).toBeNull();
    const entries = listTar(response.bytes, true);
    expect(entries).toContain(`files-${first()}/README.md`);
    expect(entries).toContain(`files-${first()}/src/main.ts`);
    expect(readTarFile(response.bytes, `files-${first()}/README.md`)).toBe('# Raw\n');
  });

  it('streams a plain tar', async () => {
    const response = await getBytes(raw(`/${first()}.tar`));
    expect(response.headers.get('content-type')).toBe('application/x-tar');
    expect(listTar(response.bytes, false)).toContain(`files-${first()}/image.png`);
  });

  it('streams a zip whose entries hold the files', async () => {
    const response = await getBytes(raw(`/${first()}.zip`));
    expect(response.headers.get('content-type')).toBe('application/zip');
    const entries = readZipEntries(response.bytes);
    expect(entries.find((entry) => entry.name === `files-${first()}/README.md`)?.data.toString()).toBe('# Raw\n');
    expect(entries.find((entry) => entry.name === `files-${first()}/image.png`)?.data.equals(PNG)).toBe(true);
  });

  it('archives a branch by name, tar.gz by default, and leaves the prefix out on request', async () => {
    const branch = repositoryByName(built, 'files').defaultBranch;
    const response = await getBytes(raw(`/archive/${branch}`));
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="files-${branch}.tar.gz"`);
    expect(readTarFile(response.bytes, `files-${branch}/README.md`)).toBe('# Raw\n\nEdited.\n');
    const bare = await getBytes(raw(`/archive/refs/heads/${branch}.zip?prefix=false`));
    expect(bare.headers.get('content-disposition')).toBe(`attachment; filename="files-refs-heads-${branch}.zip"`);
    expect(readZipEntries(bare.bytes).map((entry) => entry.name)).toContain('README.md');
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await getBytes(raw(`/${first()}.zip`), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.bytes.length).toBe(0);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="files-${first()}.zip"`);
    expect(response.headers.get('content-length')).toBeNull();
  });

  it.each([
    ['no archive suffix', () => `/${first()}`],
    ['an unknown commit', () => `/${'1'.repeat(40)}.tar.gz`],
    ['an unknown ref', () => '/archive/nope.zip'],
  ])('answers 404 for %s', async (_case, path) => {
    const response = await text(raw(path()));
    expect(response.status).toBe(404);
    expect(response.text).toBe(NOT_FOUND);
    expect(response.headers.get('content-disposition')).toBeNull();
  });

  it('answers 400 for a malformed id or prefix', async () => {
    expect((await text(raw('/xyz.tar.gz'))).text).toBe('{"error":"Invalid sha: expected 40 hexadecimal characters","code":400}');
    expect((await text(raw('/archive/master?prefix=no'))).text).toBe('{"error":"Invalid prefix: expected true or false","code":400}');
  });
});

describe('a private repository', () => {
  const cases: [string, () => string][] = [
    ['a file by commit', () => `/${first()}/README.md`],
    ['a file at the head', () => '/head/README.md'],
    ['a blob', () => `/blobs/${'2'.repeat(40)}`],
    ['an archive by commit', () => `/${first()}.tar.gz`],
    ['an archive by ref', () => '/archive/main'],
  ];

  it.each(cases)('answers %s exactly like an absent one (GET and HEAD)', async (_case, path) => {
    for (const method of ['GET', 'HEAD']) {
      const hidden = await text(raw(path(), 'hidden'), { method });
      const absent = await text(`${server.baseUrl}/raw/${ABSENT_RID}${path()}`, { method });
      expect(hidden.status).toBe(404);
      expect(hidden.text).toBe(absent.text);
      const headers = (response: typeof hidden) => [...response.headers].filter(([name]) => name !== 'date');
      expect(headers(hidden)).toEqual(headers(absent));
    }
  });
});
