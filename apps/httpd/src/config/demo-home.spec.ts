import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoRecipeFingerprint } from './demo-home.js';

describe('demoRecipeFingerprint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forge-recipe-'));
    await writeFile(join(dir, 'a.js'), 'export const a = 1;');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stays the same while the compiled builder files are unchanged', async () => {
    await writeFile(join(dir, 'a.js.map'), 'ignored');
    expect(await demoRecipeFingerprint([dir])).toBe(await demoRecipeFingerprint([dir]));
  });

  it('changes when a compiled builder file changes', async () => {
    const before = await demoRecipeFingerprint([dir]);
    await writeFile(join(dir, 'a.js'), 'export const a = 2;');
    expect(await demoRecipeFingerprint([dir])).not.toBe(before);
  });

  it('treats a missing directory as empty', async () => {
    expect(await demoRecipeFingerprint([join(dir, 'absent')])).toMatch(/^[0-9a-f]{10}$/);
  });
});
