import { isAbsolute, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** Where the server listens: a TCP host and port, or a Unix socket path. */
export type ListenAddress = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string };

/** Default listen address (loopback only, like the example systemd unit of radicle-httpd). */
export const DEFAULT_LISTEN = '127.0.0.1:8080';

const IPV6_HOST_PORT = /^\[([0-9A-Fa-f:.]+)\]:([0-9]{1,5})$/;
const HOST_PORT = /^([A-Za-z0-9.-]+):([0-9]{1,5})$/;

/**
 * Parses `--listen`: `HOST:PORT`, `[IPV6]:PORT`, or a Unix socket path (anything containing a
 * slash, made absolute against `cwd`).
 * @throws UsageError for anything else, or a port above 65535
 */
export function parseListenAddress(text: string, cwd: string, flag = '--listen'): ListenAddress {
  const match = IPV6_HOST_PORT.exec(text) ?? HOST_PORT.exec(text);
  if (match) {
    const port = Number(match[2]);
    if (port > 65535) throw new UsageError(`Invalid ${flag}: port ${match[2]} is above 65535`);
    return { kind: 'tcp', host: match[1] ?? '', port };
  }
  if (text.includes('/')) {
    return { kind: 'unix', path: isAbsolute(text) ? text : resolve(cwd, text) };
  }
  throw new UsageError(`Invalid ${flag}: expected HOST:PORT or a Unix socket path`);
}

/** The address as a human reads it: `http://host:port` or `unix:/path`. */
export function formatListenAddress(address: ListenAddress): string {
  if (address.kind === 'unix') return `unix:${address.path}`;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `http://${host}:${address.port}`;
}
