import { execFileSync } from 'node:child_process';
import { repositoryByName } from '@forge-httpd/builder';
import { ActivityTimes } from '../src/repos/activity-times.js';
import { ReposService } from '../src/repos/repos.service.js';
import { getJson, useFixtureServer } from './support/index.js';

// Head times read after start-up, in quiet moments (issue 14): a first listing sorted by activity
// of 10,000 repositories waited 0.8-1.1 s for every head to be read.

const fixture = useFixtureServer();

beforeAll(() => fixture.server.server.home.storageIndex.ready());

/** Resolves once `read` gives a value other than null (heads in packs are read through git in the background). */
async function eventually<T>(read: () => T | null): Promise<T | null> {
  for (let attempt = 0; attempt < 200 && read() === null; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return read();
}

/** The committer time of `name`'s head, as git reads it. */
function headTime(name: string): number {
  const { gitDir } = repositoryByName(fixture.built, name);
  return Number(execFileSync('git', ['--git-dir', gitDir, 'log', '-1', '--format=%ct', 'HEAD'], { encoding: 'utf8' }).trim());
}

describe('head times read ahead', () => {
  it('reads every head time before anyone asks, and only once', async () => {
    const { home } = fixture.server.server;
    const times = new ActivityTimes(home);
    let paces = 0;
    const pace = (): Promise<void> => Promise.resolve(void (paces += 1));
    const all = home.storageIndex.list();
    expect(all.length).toBeGreaterThan(3);
    expect(await times.readAhead(all, pace)).toBe(all.length);
    expect(await eventually(() => times.time(fixture.rid('alpha')))).toBe(headTime('alpha'));
    expect(await eventually(() => times.time(fixture.rid('beta')))).toBe(headTime('beta'));
    // A refresh has been done: the next read ahead does nothing and a listing does not wait.
    expect(await times.readAhead(all, pace)).toBe(0);
  });

  it('goes on at full speed when a request needs the times while it waits for a quiet moment', async () => {
    const { home } = fixture.server.server;
    // Slices of 8 ms: a clock that jumps 10 ms per look makes every repository a slice of its own.
    let clock = 0;
    const times = new ActivityTimes(home, () => (clock += 10));
    let paces = 0;
    const neverQuiet = (): Promise<void> => {
      paces += 1;
      return new Promise<void>(() => undefined);
    };
    const all = home.storageIndex.list();
    const ahead = times.readAhead(all, neverQuiet);
    await new Promise((resolve) => setImmediate(resolve));
    expect(paces).toBe(1);
    await times.settle(all);
    expect(await ahead).toBe(all.length);
    expect(await eventually(() => times.time(fixture.rid('alpha')))).toBe(headTime('alpha'));
    expect(paces).toBe(1);
  });

  it('serves the server: a listing sorted by activity after the read ahead lists by head time', async () => {
    const repos = fixture.server.server.app.get(ReposService);
    await repos.readActivityAhead(() => Promise.resolve());
    const response = await getJson(fixture.url('/api/v1/repos?show=all&sort=activity&perPage=100'));
    expect(response.status).toBe(200);
    const rids = (response.body as { rid: string }[]).map((info) => info.rid);
    const alpha = rids.indexOf(fixture.rid('alpha'));
    const beta = rids.indexOf(fixture.rid('beta'));
    expect(alpha).toBeGreaterThanOrEqual(0);
    expect(beta).toBeGreaterThanOrEqual(0);
    expect(alpha < beta).toBe(headTime('alpha') >= headTime('beta'));
  });
});
