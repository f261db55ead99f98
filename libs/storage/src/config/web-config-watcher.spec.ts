import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ridFromOid } from '@forge-httpd/identity';
import { formatProfileConfig } from './format-profile-config.js';
import { WebConfigWatcher } from './web-config-watcher.js';

const RID = ridFromOid('d96f425412c9f8ad5d9a9a05c9831d0728e2338d');

describe('WebConfigWatcher', () => {
  let dir: string;
  let file: string;
  let logged: string[];
  let watcher: WebConfigWatcher;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    file = path.join(dir, 'config.json');
    await writeFile(file, formatProfileConfig({ alias: 'a', web: { description: 'one' } }));
    logged = [];
    watcher = new WebConfigWatcher({
      path: file,
      initial: { pinnedRepositories: [], description: 'one' },
      log: (message) => logged.push(message),
    });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shows a changed file on the next call', async () => {
    await writeFile(file, formatProfileConfig({ alias: 'a', web: { description: 'two', pinned: [RID] } }));
    expect(watcher.current()).toEqual({ pinnedRepositories: [RID], description: 'two' });
  });

  it('keeps the last good settings when the file becomes invalid and logs once per change', async () => {
    await writeFile(file, '{"node":{"alias":"a"},"web":{}}');
    expect(watcher.current().description).toBe('one');
    expect(watcher.current().description).toBe('one');
    expect(logged).toHaveLength(1);
    await writeFile(file, 'not json at all');
    expect(watcher.current().description).toBe('one');
    expect(logged).toHaveLength(2);
  });

  it('recovers once the file is valid again, even with the same size', async () => {
    await writeFile(file, formatProfileConfig({ alias: 'a', web: { description: 'onx' } }).replace('"web"', '"wex"'));
    watcher.current();
    await writeFile(file, formatProfileConfig({ alias: 'a', web: { description: 'tri' } }));
    expect(watcher.current().description).toBe('tri');
  });

  it('keeps the last good settings while the file is missing', async () => {
    await rm(file);
    expect(watcher.current().description).toBe('one');
    expect(logged).toHaveLength(1);
  });

  it('re-reads on reload even when stat is unchanged', async () => {
    expect(watcher.reload().description).toBe('one');
  });
});
