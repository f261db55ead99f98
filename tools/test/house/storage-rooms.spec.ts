// libs/storage/src/git is split into rooms by concern (its README lists them, lower ones first):
// a room imports only from itself and the rooms before it, no room holds more than 25 source
// files, and each says in its README what lives there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const gitDir = join(import.meta.dirname, '..', '..', '..', 'libs', 'storage', 'src', 'git');

/** The rooms in the order of the README's table. */
const rooms = [...readFileSync(join(gitDir, 'README.md'), 'utf8').matchAll(/^\| `(\w+)\/` \|/gm)].map((match) => match[1] ?? '');

const sources = (room: string): string[] =>
  readdirSync(join(gitDir, room)).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts'));

describe('the rooms of libs/storage/src/git', () => {
  it('are every folder, in one order', () => {
    const folders = readdirSync(gitDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect([...rooms].sort()).toEqual(folders);
    expect(rooms.length).toBeGreaterThanOrEqual(6);
  });

  it.each(rooms)('%s holds at most 25 source files and says what lives there', (room) => {
    expect(sources(room).length).toBeLessThanOrEqual(25);
    expect(existsSync(join(gitDir, room, 'README.md'))).toBe(true);
  });

  it.each(rooms)('%s imports only from itself and the rooms before it', (room) => {
    const allowed = new Set(rooms.slice(0, rooms.indexOf(room) + 1));
    const offending = sources(room).flatMap((name) =>
      [...readFileSync(join(gitDir, room, name), 'utf8').matchAll(/from '(\.[^']+)'/g)]
        .map((match) => relative(gitDir, join(gitDir, room, dirname(match[1] ?? '.'))).split('/')[0] ?? '')
        .filter((target) => rooms.includes(target) && !allowed.has(target))
        .map((target) => `${room}/${name} → ${target}/`),
    );
    expect(offending).toEqual([]);
  });
});
