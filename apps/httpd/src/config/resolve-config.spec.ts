import { jest } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConfigSources, resolveServerConfig } from './resolve-config.js';

let userHome: string;

beforeAll(async () => {
  userHome = await mkdtemp(join(tmpdir(), 'forge-'));
});

afterAll(async () => {
  await rm(userHome, { recursive: true, force: true });
});

function sources(overrides: Partial<ConfigSources>): ConfigSources {
  return {
    options: {},
    env: {},
    userHome,
    cwd: '/work',
    version: '1.2.3',
    ensureDemoHome: (flavour) => Promise.resolve(`/cache/demo-${flavour}`),
    ...overrides,
  };
}

describe('resolveServerConfig', () => {
  it('defaults to the demo home, forge flavour, 127.0.0.1:8080 and the home socket', async () => {
    const config = await resolveServerConfig(sources({}));
    expect(config).toMatchObject({
      home: '/cache/demo-forge',
      homeSource: 'demo',
      flavour: 'forge',
      flavourReason: 'auto: the storage holds no repository; the home was not a Radicle location',
      socketPath: '/cache/demo-forge/node/control.sock',
      listen: { kind: 'tcp', host: '127.0.0.1', port: 8080 },
      metricsListen: null,
      workers: 1,
      memoryBudgetMiB: 64,
      version: '1.2.3',
    });
  });

  it('takes the memory budget from --memory-budget, else FORGE_MEMORY_BUDGET', async () => {
    const env = { FORGE_HOME: '/h', FORGE_MEMORY_BUDGET: '64' };
    expect((await resolveServerConfig(sources({ env }))).memoryBudgetMiB).toBe(64);
    expect((await resolveServerConfig(sources({ env, options: { memoryBudget: '0' } }))).memoryBudgetMiB).toBe(0);
  });

  it.each(['-1', '1.5', 'lots', ''])('rejects the memory budget %j with a usage error', async (memoryBudget) => {
    await expect(resolveServerConfig(sources({ env: { FORGE_HOME: '/h' }, options: { memoryBudget } }))).rejects.toThrow(
      'Invalid --memory-budget: expected a whole number of MiB',
    );
  });

  it('serves metrics on --metrics-listen, else FORGE_METRICS_LISTEN', async () => {
    const env = { FORGE_HOME: '/h', FORGE_METRICS_LISTEN: '127.0.0.1:9464' };
    expect((await resolveServerConfig(sources({ env }))).metricsListen).toMatchObject({ kind: 'tcp', host: '127.0.0.1', port: 9464 });
    const options = { metricsListen: '[::1]:9100' };
    expect((await resolveServerConfig(sources({ env, options }))).metricsListen).toMatchObject({ kind: 'tcp', host: '::1', port: 9100 });
    await expect(resolveServerConfig(sources({ env, options: { metricsListen: 'nowhere' } }))).rejects.toThrow(
      'Invalid --metrics-listen: expected HOST:PORT or a Unix socket path',
    );
  });

  it('keeps a cache directory per node home under the XDG cache home by default', async () => {
    const cacheOf = async (env: Record<string, string>): Promise<string | null> => (await resolveServerConfig(sources({ env }))).cacheDir;
    const first = await cacheOf({ FORGE_HOME: '/a', XDG_CACHE_HOME: '/xdg' });
    expect(first).toMatch(/^\/xdg\/forge-httpd\/homes\/[0-9a-f]{16}$/);
    expect(await cacheOf({ FORGE_HOME: '/b', XDG_CACHE_HOME: '/xdg' })).not.toBe(first);
    expect(await cacheOf({ FORGE_HOME: '/a' })).toBe(join(userHome, '.cache', 'forge-httpd', 'homes', first?.split('/').pop() ?? ''));
  });

  it('takes the cache directory from --cache-dir, else FORGE_CACHE_DIR; none with --no-cache-dir', async () => {
    const env = { FORGE_HOME: '/h', FORGE_CACHE_DIR: '/env-cache' };
    expect((await resolveServerConfig(sources({ env }))).cacheDir).toBe('/env-cache');
    expect((await resolveServerConfig(sources({ env, options: { cacheDir: 'c' } }))).cacheDir).toBe('/work/c');
    expect((await resolveServerConfig(sources({ env, options: { noCacheDir: true } }))).cacheDir).toBeNull();
  });

  it('prefers --home over FORGE_HOME and RAD_HOME, resolved against the working directory', async () => {
    const env = { FORGE_HOME: '/forge', RAD_HOME: '/rad' };
    const config = await resolveServerConfig(sources({ options: { home: 'h' }, env }));
    expect(config).toMatchObject({ home: '/work/h', homeSource: 'flag' });
  });

  it('uses FORGE_HOME before RAD_HOME', async () => {
    const env = { FORGE_HOME: '/forge', RAD_HOME: '/rad' };
    const config = await resolveServerConfig(sources({ env }));
    expect(config).toMatchObject({ home: '/forge', homeSource: 'FORGE_HOME' });
  });

  it('serves RAD_HOME as radicle without flags, and not with --flavour forge', async () => {
    const env = { RAD_HOME: '/rad' };
    expect(await resolveServerConfig(sources({ env }))).toMatchObject({
      home: '/rad',
      homeSource: 'RAD_HOME',
      flavour: 'radicle',
      flavourReason: 'auto: the storage holds no repository; the home was found through RAD_HOME',
    });
    expect(await resolveServerConfig(sources({ options: { flavour: 'radicle' }, env }))).toMatchObject({ home: '/rad', flavourReason: '--flavour radicle' });
    expect(await resolveServerConfig(sources({ options: { flavour: 'forge' }, env }))).toMatchObject({ homeSource: 'demo', flavour: 'forge' });
  });

  it('serves ~/.radicle when it holds a config.json, as radicle, unless forge is forced', async () => {
    await mkdir(join(userHome, '.radicle'));
    await writeFile(join(userHome, '.radicle', 'config.json'), '{}');
    try {
      expect(await resolveServerConfig(sources({}))).toMatchObject({
        home: join(userHome, '.radicle'),
        homeSource: 'default',
        flavour: 'radicle',
      });
      expect(await resolveServerConfig(sources({ options: { flavour: 'forge' } }))).toMatchObject({ homeSource: 'demo' });
    } finally {
      await rm(join(userHome, '.radicle'), { recursive: true });
    }
  });

  it('takes RAD_SOCKET and FORGE_LISTEN from the environment', async () => {
    const env = { RAD_SOCKET: 'sock', FORGE_LISTEN: '/run/forge.sock', FORGE_HOME: '/h' };
    expect(await resolveServerConfig(sources({ env }))).toMatchObject({
      socketPath: '/work/sock',
      listen: { kind: 'unix', path: '/run/forge.sock' },
    });
  });

  it('takes --workers, else FORGE_WORKERS, and rejects anything but 1 to 64', async () => {
    expect((await resolveServerConfig(sources({ options: { workers: '2' }, env: { FORGE_WORKERS: '3' } }))).workers).toBe(2);
    expect((await resolveServerConfig(sources({ env: { FORGE_WORKERS: '3' } }))).workers).toBe(3);
    const ensureDemoHome = jest.fn(() => Promise.resolve('/never'));
    for (const workers of ['0', '65', '1.5', '-1', 'two', '']) {
      await expect(resolveServerConfig(sources({ options: { workers }, ensureDemoHome }))).rejects.toMatchObject({
        code: 'USAGE',
        message: 'Invalid --workers: expected an integer from 1 to 64',
      });
    }
    // Checked before a demo home would be generated for nothing.
    expect(ensureDemoHome).not.toHaveBeenCalled();
  });

  it('reads --alias NAME=RID pairs and rejects bad names, bad RIDs and a name given two RIDs', async () => {
    const [a, b] = ['rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5', 'rad:z4V1sjrXqjvFdnCUbxPFqd5p4DtH5'];
    const config = await resolveServerConfig(sources({ options: { aliases: [`heartwood=${a}`, `other=${b.slice(4)}`, `heartwood=${a}`] } }));
    expect(config.aliases).toEqual(
      new Map([
        ['heartwood', a],
        ['other', b],
      ]),
    );
    expect((await resolveServerConfig(sources({}))).aliases.size).toBe(0);
    for (const [flag, message] of [
      ['heartwood', 'Invalid --alias: expected NAME=RID'],
      [`x.git=${a}`, 'Invalid --alias: expected NAME=RID'],
      [`${b.slice(4)}=${a}`, 'Invalid --alias: expected NAME=RID'],
      ['heartwood=rad:nope', 'Invalid --alias heartwood: expected NAME=RID with a RID'],
    ]) {
      await expect(resolveServerConfig(sources({ options: { aliases: [flag ?? ''] } }))).rejects.toThrow(message);
    }
    await expect(resolveServerConfig(sources({ options: { aliases: [`h=${a}`, `h=${b}`] } }))).rejects.toThrow(
      'Invalid --alias h: given twice for different repositories',
    );
  });

  it('rejects an unknown flavour before generating any demo home', async () => {
    const ensureDemoHome = jest.fn(() => Promise.resolve('/never'));
    await expect(resolveServerConfig(sources({ options: { flavour: 'git' }, ensureDemoHome }))).rejects.toThrow(
      'Invalid --flavour: expected auto, forge or radicle',
    );
    expect(ensureDemoHome).not.toHaveBeenCalled();
  });

  it('rejects a Unix socket path too long for sockaddr_un', async () => {
    const listen = `/${'x'.repeat(120)}`;
    await expect(resolveServerConfig(sources({ options: { listen } }))).rejects.toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});
