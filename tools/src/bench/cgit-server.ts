import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnServer, stopChild, waitForHttp } from './processes.js';

/** A running cgit (nginx + fcgiwrap + cgit.cgi) serving one repository as `big`. */
export interface CgitServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

const CGIT_CGI = '/usr/lib/cgit/cgit.cgi';

/** cgit stacks started by this process (names their sockets). */
let started = 0;

/**
 * Starts cgit on a local port with its configuration in `workDir`: nginx (one worker) passes
 * every request through fcgiwrap to cgit.cgi, cgit's own page cache off (its default), so each
 * page is computed from the repository like forge-httpd's cold path.
 */
export async function startCgit(gitDir: string, workDir: string): Promise<CgitServer> {
  await mkdir(workDir, { recursive: true });
  const port = await freePort();
  // Unix socket paths must stay short: keep it in the temp dir, not under the work dir. One per
  // start: a run may start cgit again (the imported history's crawl) after stopping it.
  started += 1;
  const socket = path.join(os.tmpdir(), `cgit-${process.pid}-${started}.sock`);
  await rm(socket, { force: true });
  await writeFile(path.join(workDir, 'cgitrc'), cgitrc(gitDir));
  await writeFile(path.join(workDir, 'nginx.conf'), nginxConf({ workDir, port, socket }));
  const fcgi = spawnServer('/usr/sbin/fcgiwrap', ['-s', `unix:${socket}`, '-c', '4']);
  const nginx = spawnServer('nginx', ['-p', workDir, '-c', path.join(workDir, 'nginx.conf'), '-e', path.join(workDir, 'error.log')]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await stopChild(nginx.child);
    await stopChild(fcgi.child);
    await rm(socket, { force: true });
  };
  try {
    // A 200, not any answer: nginx may answer 502 before fcgiwrap has made its socket (seen once).
    await waitForHttp(`${baseUrl}/big/`, 10_000, nginx.child, 200);
  } catch (error) {
    await stop();
    throw new Error(`cgit did not start: ${(error as Error).message}\nnginx: ${nginx.log()}\nfcgiwrap: ${fcgi.log()}`);
  }
  return { baseUrl, stop };
}

function cgitrc(gitDir: string): string {
  return ['cache-size=0', 'virtual-root=/', 'max-commit-count=30', 'enable-index-links=0', 'repo.url=big', `repo.path=${gitDir}`, ''].join('\n');
}

function nginxConf(spec: { workDir: string; port: number; socket: string }): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${path.join(spec.workDir, `${t}_temp`)};`);
  return `daemon off;
master_process on;
worker_processes 1;
user root;
pid ${path.join(spec.workDir, 'nginx.pid')};
error_log ${path.join(spec.workDir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
${temp.join('\n')}
  server {
    listen 127.0.0.1:${spec.port};
    location / {
      fastcgi_param SCRIPT_FILENAME ${CGIT_CGI};
      fastcgi_param SCRIPT_NAME /;
      fastcgi_param PATH_INFO $uri;
      fastcgi_param QUERY_STRING $args;
      fastcgi_param REQUEST_METHOD $request_method;
      fastcgi_param SERVER_NAME 127.0.0.1;
      fastcgi_param SERVER_PORT ${spec.port};
      fastcgi_param HTTP_HOST 127.0.0.1;
      fastcgi_param CGIT_CONFIG ${path.join(spec.workDir, 'cgitrc')};
      fastcgi_pass unix:${spec.socket};
    }
  }
}
`;
}
