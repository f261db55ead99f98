import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine, USAGE } from './command-line.js';
import { parseListenAddress } from './listen-address.js';

describe('parseCommandLine', () => {
  it('reads the serve flags', () => {
    expect(parseCommandLine(['--home', '/h', '--listen', '0.0.0.0:9', '--flavour', 'radicle'])).toEqual({
      action: 'serve',
      options: { home: '/h', listen: '0.0.0.0:9', flavour: 'radicle' },
    });
    expect(parseCommandLine(['--home=/x'])).toEqual({ action: 'serve', options: { home: '/x' } });
    expect(parseCommandLine([])).toEqual({ action: 'serve', options: {} });
  });

  it('reads the metrics and logging flags', () => {
    expect(parseCommandLine(['--metrics-listen', '127.0.0.1:9464', '--log-level', 'debug', '--memory-budget', '96', '--workers', '2'])).toEqual({
      action: 'serve',
      options: { metricsListen: '127.0.0.1:9464', logLevel: 'debug', memoryBudget: '96', workers: '2' },
    });
  });

  it('reads the cache directory flags', () => {
    expect(parseCommandLine(['--cache-dir', '/c'])).toEqual({ action: 'serve', options: { cacheDir: '/c' } });
    expect(parseCommandLine(['--no-cache-dir'])).toEqual({ action: 'serve', options: { noCacheDir: true } });
  });

  it('reads every --alias, in order', () => {
    expect(parseCommandLine(['--alias', 'a=rad:z1', '--alias=b=z2'])).toEqual({ action: 'serve', options: { aliases: ['a=rad:z1', 'b=z2'] } });
  });

  it.each([[['--help']], [['-h']], [['--home', '/h', '--help']]])('asks for help with %j', (args) => {
    expect(parseCommandLine(args)).toEqual({ action: 'help' });
  });

  it.each([[['--version']], [['-V']]])('asks for the version with %j', (args) => {
    expect(parseCommandLine(args)).toEqual({ action: 'version' });
  });

  it.each([[['--nope']], [['positional']], [['--home']], [['-x']], [['--help=yes']]])('rejects %j with a usage error', (args) => {
    expect(() => parseCommandLine(args)).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});

describe('parseListenAddress', () => {
  it.each([
    ['127.0.0.1:8080', { kind: 'tcp', host: '127.0.0.1', port: 8080 }],
    ['localhost:0', { kind: 'tcp', host: 'localhost', port: 0 }],
    ['[::1]:80', { kind: 'tcp', host: '::1', port: 80 }],
    ['/tmp/x.sock', { kind: 'unix', path: '/tmp/x.sock' }],
    ['./x.sock', { kind: 'unix', path: '/work/x.sock' }],
  ])('parses %j', (text, expected) => {
    expect(parseListenAddress(text, '/work')).toEqual(expected);
  });

  it.each(['8080', 'host', 'host:99999', ':80', 'host:-1', ''])('rejects %j', (text) => {
    expect(() => parseListenAddress(text, '/work')).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});

describe('USAGE', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Command line'), readme.indexOf('\n## ', readme.indexOf('## Command line') + 1));
  const names = (text: string, pattern: RegExp): string[] => [...new Set(text.match(pattern))].sort();

  it("names the same flags and environment variables as the README's command-line section", () => {
    expect(names(USAGE, /--[a-z][a-z-]*/g)).toEqual(names(section, /--[a-z][a-z-]*/g));
    expect(names(USAGE, /\b(?:FORGE|RAD|XDG)_[A-Z_]+\b/g)).toEqual(names(section, /\b(?:FORGE|RAD|XDG)_[A-Z_]+\b/g));
  });
});
