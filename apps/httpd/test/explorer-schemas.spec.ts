import { join } from 'node:path';
import type { Flavour } from '@forge-httpd/storage';
import { type BuiltHome, buildDemoHome, readNodeConfig, startControlSocket, type ControlSocketServer } from '@forge-httpd/builder';
import { explorerRoutes } from './support/explorer-schemas/index.js';
import { walkExplorerRoutes } from './support/explorer-walk.js';
import { buildFixtureHome, makeTempDir, removeTempDir, startTestServer, tempSocketPath, type TestServer } from './support/index.js';

interface Served {
  dir: string;
  built: BuiltHome;
  server: TestServer;
  socket: ControlSocketServer;
}

/** Serves a home with a control socket that answers like a running node (its config.json `node`). */
async function serve(build: (home: string) => Promise<BuiltHome>): Promise<Served> {
  const dir = await makeTempDir();
  const built = await build(join(dir, 'home'));
  const socketPath = tempSocketPath('walk');
  const socket = await startControlSocket({ path: socketPath, mode: 'answer', config: await readNodeConfig(built.home), nid: built.nid });
  const server = await startTestServer({ home: built.home, flavour: built.flavour, socketPath });
  return { dir, built, server, socket };
}

describe.each<[string, (home: string) => Promise<BuiltHome>, boolean]>([
  ['the demo home (forge)', (home) => buildDemoHome(home), true],
  ['the demo home (radicle)', (home) => buildDemoHome(home, { flavour: 'radicle' as Flavour }), true],
  ['the fixture home (private, blocked and absent pins, unknown peers)', (home) => buildFixtureHome(home), false],
])('every route on %s', (_, build, complete) => {
  let served: Served;

  beforeAll(async () => {
    served = await serve(build);
  }, 120_000);

  afterAll(async () => {
    await served?.server.close();
    await served?.socket.close();
    await removeTempDir(served?.dir ?? '');
  });

  it('answers only values radicle-explorer accepts, and errors as {error, code}', async () => {
    const walk = await walkExplorerRoutes(served.server.baseUrl, served.built.flavour);
    expect(walk.problems).toEqual([]);
    expect(walk.requests).toBeGreaterThan(complete ? 100 : 30);
    if (!complete) return;
    const missing = explorerRoutes(served.built.flavour)
      .map((route) => route.template)
      .filter((template) => !walk.served.has(template));
    expect(missing).toEqual([]);
  }, 120_000);
});
