// README.md is the first thing a user runs: every shell command it shows either runs here, as
// written, against the demo node home it describes, or (the install, test and build commands,
// which CI itself runs) names an npm script that exists. Its route table names every JSON route.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JSON_ROUTES } from '@forge-httpd/api-types';
import { ensureDemoHome } from '../src/config/demo-home.js';
import { makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The ```sh blocks, each as its command lines without trailing comments. */
const shellBlocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
  (match[1] ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== ''),
);
const isNpmCommand = (line: string): boolean => line.startsWith('npm ');
const talksToServer = (block: readonly string[]): boolean => block.some((line) => /(localhost|127\.0\.0\.1):8080/.test(line));

let cacheRoot: string;
let server: TestServer;

beforeAll(async () => {
  cacheRoot = await makeTempDir();
  const home = await ensureDemoHome({ cacheRoot, version: '9.9.9', flavour: 'forge', log: () => undefined });
  server = await startTestServer({ home });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(cacheRoot);
});

describe('README.md', () => {
  it('shows shell commands, some of them against the demo server', () => {
    expect(shellBlocks.filter(talksToServer).length).toBeGreaterThanOrEqual(2);
  });

  it('names only npm scripts that exist', () => {
    const named = shellBlocks.flat().flatMap((line) => [...line.matchAll(/npm (?:run (\S+)|(start|test))\b/g)].map((m) => m[1] ?? m[2] ?? ''));
    expect(named.length).toBeGreaterThanOrEqual(3);
    expect(named.filter((name) => scripts[name] === undefined)).toEqual([]);
  });

  it.each(shellBlocks.filter(talksToServer).map((block) => [block[0] ?? '', block] as const))(
    'runs the block starting `%s` as written against the demo home',
    async (_first, block) => {
      const dir = await makeTempDir();
      try {
        const port = new URL(server.baseUrl).port;
        const script = ['set -eu', ...block.filter((line) => !isNpmCommand(line))].join('\n').replace(/(localhost|127\.0\.0\.1):8080/g, `$1:${port}`);
        const { stdout } = await run('bash', ['-c', script], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
        expect(stdout).not.toContain('"error"');
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) {
            // A clone: a work tree checked out at a commit.
            const { stdout: head } = await run('git', ['-C', path, 'rev-parse', 'HEAD']);
            expect(head.trim()).toMatch(/^[0-9a-f]{40}$/);
            expect(readdirSync(path).filter((entry) => entry !== '.git').length).toBeGreaterThan(0);
          } else {
            // A download: the bytes asked for, not an error body.
            expect(readFileSync(path).subarray(0, 9).toString()).not.toBe('{"error":');
            expect(statSync(path).size).toBeGreaterThan(0);
          }
        }
        if (block.some((line) => line.includes('.zip'))) {
          expect(readdirSync(dir).some((name) => name.endsWith('.zip') && readFileSync(join(dir, name)).subarray(0, 2).toString() === 'PK')).toBe(true);
        }
      } finally {
        await removeTempDir(dir);
      }
    },
    60_000,
  );

  it("lists every JSON route in its route tables (radicle-httpd's and those beyond it)", () => {
    const section = (heading: string): string => readme.slice(readme.indexOf(heading), readme.indexOf('\n## ', readme.indexOf(heading) + 1));
    const table = section('## Routes at a glance') + section('## Beyond radicle-httpd');
    const missing = Object.values(JSON_ROUTES)
      .map((route) => route.path.replace(/^\/api\/v1(?=\/.)/, ''))
      .filter((path) => !table.includes(`\`${path}\``) && !table.includes(`\`${path}?`));
    expect(missing).toEqual([]);
  });
});
