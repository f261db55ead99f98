import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nginx site shipped in deploy/ (the TLS variant operators install). */
const NGINX_SITE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'deploy', 'nginx', 'forge-httpd.conf');

/** The nginx binary on PATH or in the sbin directories Debian installs it to, or null. */
export function findNginx(): string | null {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there; try the next directory.
    }
  }
  return null;
}

/**
 * The plain-HTTP copy of the shipped site: the `BEGIN TLS`…`END TLS` parts removed, the
 * `# PLAIN: ` lines enabled, and the upstream, listen address and cache directory replaced.
 */
function plainHttpSite(site: string, options: { listenPort: number; upstreamPort: number; cacheDir: string }): string {
  const plain = site.replace(/^[ \t]*# BEGIN TLS\n[\s\S]*?^[ \t]*# END TLS\n/gm, '').replace(/^([ \t]*)# PLAIN: /gm, '$1');
  // Checked before the test's own values go in: a random port or temp folder may contain "443".
  const cachePath = '/var/cache/nginx/forge-httpd';
  if (/ssl|443|\/var\//.test(plain.replace(cachePath, ''))) throw new Error('the plain-HTTP site still has TLS or system paths');
  return plain
    .replace('listen 127.0.0.1:80;', `listen 127.0.0.1:${options.listenPort};`)
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${options.upstreamPort};`)
    .replace(cachePath, options.cacheDir);
}

/** A free loopback TCP port (closed again; nginx binds it right after). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A running nginx in front of a server, all files in one directory. */
export interface RunningNginx {
  readonly url: string;
  stop(): Promise<void>;
}

/** Writes a main configuration around the plain-HTTP site and runs nginx in the foreground. */
export async function startNginx(options: { binary: string; dir: string; upstreamPort: number }): Promise<RunningNginx> {
  const { binary, dir } = options;
  const listenPort = await freePort();
  const cacheDir = join(dir, 'cache');
  await mkdir(cacheDir, { recursive: true });
  // nginx started as root runs its workers as another user, who must reach these files.
  await chmod(dir, 0o755);
  await chmod(cacheDir, 0o777);
  const site = plainHttpSite(await readFile(NGINX_SITE, 'utf8'), { listenPort, upstreamPort: options.upstreamPort, cacheDir });
  const temp = (name: string): string => `${name}_temp_path ${join(dir, `${name}-temp`)};`;
  const main = [
    process.getuid?.() === 0 ? `user ${userInfo().username};` : '',
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 128; }',
    'http {',
    'access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    site,
    '}',
  ].join('\n');
  await writeFile(join(dir, 'nginx.conf'), main);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${listenPort}`;
  await waitUntilListening(url, child, () => stderr);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGQUIT');
      }),
  };
}

async function waitUntilListening(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${stderr()}`);
    try {
      await fetch(`${url}/api/v1`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error(`nginx did not listen: ${stderr()}`);
}
