import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPoliciesDatabase } from './create-databases.js';
import { PoliciesDatabase } from './policies-database.js';
import { insertSeedingPolicy } from './row-writers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'forge-stamp-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('change stamps of the node databases', () => {
  it('stays the same while nothing is written and changes with every commit of the node', () => {
    const file = path.join(dir, 'policies.db');
    const writer = createPoliciesDatabase(file);
    const reader = new PoliciesDatabase(file);
    try {
      const stamps = [reader.changeStamp()];
      expect(reader.changeStamp()).toBe(stamps[0]);
      insertSeedingPolicy(writer, { rid: 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5', policy: { policy: 'block' } });
      stamps.push(reader.changeStamp());
      expect(reader.changeStamp()).toBe(stamps[1]);
      insertSeedingPolicy(writer, { rid: 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5', policy: { policy: 'allow', scope: 'all' } });
      stamps.push(reader.changeStamp());
      expect(new Set(stamps).size).toBe(3);
    } finally {
      reader.close();
      writer.close();
    }
  });
});
