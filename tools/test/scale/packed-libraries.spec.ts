import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type BuiltHome, buildDemoHome, repositoryByName } from '@forge-httpd/builder';

// What another Node tool does with our libraries: pack them, install the tarballs into an empty
// project (better-sqlite3 builds from source there, like in the workspace) and run the example
// each library README opens with, against a demo home.
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const LIBRARIES = ['bounded-cache', 'identity', 'storage', 'cob', 'diff'];

let dir: string;
let project: string;
let built: BuiltHome;

/** The `js` code block under a README's `## Example` heading. */
async function readmeExample(library: string): Promise<string> {
  const text = await readFile(path.join(ROOT, 'libs', library, 'README.md'), 'utf8');
  const section = text.slice(text.indexOf('## Example'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error(`libs/${library}/README.md has no example`);
  return match[1];
}

async function runExample(library: string, args: readonly string[]): Promise<string> {
  const file = path.join(project, `${library}-example.mjs`);
  await writeFile(file, await readmeExample(library));
  // The example must end by itself: a handle left open (a git process, a database) would hang it.
  // Plain output whatever the runner sets (Nx forces colours on its children).
  const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  const { stdout } = await run(process.execPath, [file, ...args], { cwd: project, timeout: 60_000, env });
  return stdout;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'forge-pack-'));
  const tarballs = path.join(dir, 'tarballs');
  project = path.join(dir, 'project');
  await Promise.all([mkdir(tarballs), mkdir(project)]);
  const workspaces = LIBRARIES.flatMap((library) => ['-w', `libs/${library}`]);
  await run('npm', ['pack', ...workspaces, '--pack-destination', tarballs], { cwd: ROOT });
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'a-tool', private: true, type: 'module' }));
  await copyFile(path.join(ROOT, '.npmrc'), path.join(project, '.npmrc'));
  const files = (await readdir(tarballs)).map((name) => path.join(tarballs, name));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...files], { cwd: project, timeout: 300_000 });
  built = await buildDemoHome(path.join(dir, 'home'));
}, 420_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the packed libraries in another project', () => {
  it("lists a home's public repositories with their heads (storage README)", async () => {
    const lines = (await runExample('storage', [built.home, 'forge'])).trim().split('\n');
    const acme = repositoryByName(built, 'acme-web');
    expect(lines).toContain(`${acme.rid} acme-web refs/heads/main ${acme.head}`);
    expect(lines.some((line) => line.includes('secret-plans'))).toBe(false);
  });

  it("lists a repository's issues (cob README)", async () => {
    const lines = (await runExample('cob', [built.home, 'acme-web', 'forge'])).trim().split('\n');
    expect(lines).toContain('open Image gallery is slow');
    expect(lines).toContain('closed Broken link on the about page');
  });

  it('derives identifiers and verifies a signature (identity README)', async () => {
    const [ids = '', rid = ''] = (await runExample('identity', [])).trim().split('\n');
    expect(ids).toMatch(/^z6Mk\w+ did:key:z6Mk\w+ true$/);
    expect(rid).toBe('rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5');
  });

  it('reads each file once however often it is asked for (bounded-cache README)', async () => {
    const line = (await runExample('bounded-cache', ['package.json', 'bounded-cache-example.mjs'])).trim();
    expect(line).toMatch(/^2 files, \d+ bytes, 2 hits, 2 misses$/);
  });

  it("structures a commit's diff from git's output (diff README)", async () => {
    const acme = repositoryByName(built, 'acme-web');
    const lines = (await runExample('diff', [acme.gitDir, acme.head])).trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => /^(added|deleted|modified|moved|copied) \S+ (plain|binary|empty)$/.test(line))).toBe(true);
  });
});
