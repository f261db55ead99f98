import { join } from 'node:path';
import type { Did, Nid, Rid } from '@forge-httpd/identity';
import type { Flavour } from '@forge-httpd/storage';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { buildFixtureHome } from './fixture-home.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';
import { startTestServer, type TestServer } from './test-server.js';

/** What a spec using {@link useFixtureServer} reads once `beforeAll` has run. */
export interface FixtureContext {
  dir: string;
  built: BuiltHome;
  server: TestServer;
  /** `baseUrl` + path. */
  url(path: string): string;
  /** RID of a fixture repository by name. */
  rid(name: string): Rid;
  /** NID of the local node (`seed`) or a peer by alias. */
  nid(alias: string): Nid;
  /** `did:key:` of the local node or a peer. */
  did(alias: string): Did;
}

/**
 * Registers `beforeAll`/`afterAll` that build the fixture home (see `fixtureHomeSpec`) in a
 * temp dir and serve it; the returned object is filled in by `beforeAll`.
 * @param options.flavour - flavour the home is written in (default forge)
 * @param options.serverFlavour - flavour the server runs with (default: the home's)
 * @param options.socketPath - control socket path given to the server
 */
export function useFixtureServer(options: { flavour?: Flavour; serverFlavour?: Flavour; socketPath?: string } = {}): FixtureContext {
  const context = {} as FixtureContext;
  beforeAll(async () => {
    context.dir = await makeTempDir();
    context.built = await buildFixtureHome(join(context.dir, 'home'), options.flavour);
    context.server = await startTestServer({
      home: context.built.home,
      flavour: options.serverFlavour ?? options.flavour ?? 'forge',
      socketPath: options.socketPath,
    });
    context.url = (path) => `${context.server.baseUrl}${path}`;
    context.rid = (name) => repositoryByName(context.built, name).rid;
    context.nid = (alias) => {
      const peer = context.built.context.peers.get(alias);
      if (peer === undefined) throw new Error(`no peer ${alias}`);
      return peer.keyPair.nid;
    };
    context.did = (alias) => `did:key:${context.nid(alias)}` as Did;
  }, 60_000);
  afterAll(async () => {
    await context.server?.close();
    await removeTempDir(context.dir);
  });
  return context;
}
