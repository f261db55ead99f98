import { ridFromOid } from '@forge-httpd/identity';
import { formatProfileConfig } from './format-profile-config.js';
import { parseProfileConfig } from './profile-config.js';
import { isRepositoryAliasName } from './repository-alias.js';

const RID_A = ridFromOid('d96f425412c9f8ad5d9a9a05c9831d0728e2338d');
const RID_B = ridFromOid('e9c8f30e478f8f5456b00f27439d8c673d4a97df');

describe('formatProfileConfig', () => {
  it('writes the pretty JSON of rad auth with floats as 5.0 and a final newline', () => {
    const text = formatProfileConfig({ alias: 'alice' });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "web": {\n    "pinned": {\n      "repositories": []\n    }\n  },\n');
    expect(text).toContain('"fillRate": 5.0,\n');
    expect(text).toContain('"fillRate": 10.0,\n');
    expect(text).toContain('"seedingPolicy": {\n      "default": "block"\n    }\n  }\n}\n');
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['publicExplorer', 'preferredSeeds', 'web', 'cli', 'node']);
    expect(Object.keys((JSON.parse(text) as { node: object }).node)).toEqual([
      'alias',
      'listen',
      'peers',
      'connect',
      'externalAddresses',
      'network',
      'log',
      'relay',
      'limits',
      'workers',
      'seedingPolicy',
    ]);
  });

  it('round-trips alias, seeding policy and web settings through parseProfileConfig', () => {
    const text = formatProfileConfig({
      alias: 'seed',
      seedingPolicy: { policy: 'allow', scope: 'followed' },
      web: { pinned: [RID_A, RID_B], avatarUrl: 'https://a/x.png', description: 'hi' },
    });
    const config = parseProfileConfig(text);
    expect(config.alias).toBe('seed');
    expect(config.seedingPolicy).toEqual({ policy: 'allow', scope: 'followed' });
    expect(config.web).toEqual({
      pinnedRepositories: [RID_A, RID_B],
      avatarUrl: 'https://a/x.png',
      description: 'hi',
    });
  });
});

describe('parseProfileConfig', () => {
  const base = { node: { alias: 'a' } };

  it('ignores unknown keys and defaults web and the seeding policy', () => {
    const config = parseProfileConfig(JSON.stringify({ ...base, extra: 1, node: { alias: 'a', x: 2 } }));
    expect(config.web).toEqual({ pinnedRepositories: [] });
    expect(config.seedingPolicy).toEqual({ policy: 'block' });
  });

  it('reads an allow policy without scope as scope all, and lets legacy keys override', () => {
    const allow = parseProfileConfig(JSON.stringify({ node: { alias: 'a', seedingPolicy: { default: 'allow' } } }));
    expect(allow.seedingPolicy).toEqual({ policy: 'allow', scope: 'all' });
    const legacy = parseProfileConfig(JSON.stringify({ node: { alias: 'a', policy: 'block', scope: 'all', seedingPolicy: { default: 'allow' } } }));
    expect(legacy.seedingPolicy).toEqual({ policy: 'block' });
  });

  it('accepts pins without the rad: prefix and removes duplicates', () => {
    const config = parseProfileConfig(JSON.stringify({ ...base, web: { pinned: { repositories: [RID_A.slice(4), RID_A] } } }));
    expect(config.web.pinnedRepositories).toEqual([RID_A]);
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '[]'],
    ['no node', '{}'],
    ['no alias', '{"node":{}}'],
    ['web without pinned', '{"node":{"alias":"a"},"web":{}}'],
    ['web not an object', '{"node":{"alias":"a"},"web":1}'],
    ['a pin that is not a RID', '{"node":{"alias":"a"},"web":{"pinned":{"repositories":["x"]}}}'],
    ['a description that is not a string', '{"node":{"alias":"a"},"web":{"pinned":{"repositories":[]},"description":1}}'],
    ['an unknown seeding policy', '{"node":{"alias":"a","seedingPolicy":{"default":"maybe"}}}'],
  ])('rejects a file with %s with code CONFIG_INVALID', (_case, text) => {
    expect(() => parseProfileConfig(text)).toThrow(expect.objectContaining({ code: 'invalid-data' }));
  });
});

describe('web.aliases', () => {
  const withAliases = (aliases: unknown): string => JSON.stringify({ node: { alias: 'a' }, web: { pinned: { repositories: [] }, aliases } });

  it('reads alias names to RIDs, and leaves the key out when the file has none', () => {
    const config = parseProfileConfig(withAliases({ heartwood: RID_A, 'my.repo_2-x': RID_B.slice(4) }));
    expect(config.web.aliases).toEqual(
      new Map([
        ['heartwood', RID_A],
        ['my.repo_2-x', RID_B],
      ]),
    );
    expect('aliases' in parseProfileConfig(JSON.stringify({ node: { alias: 'a' } })).web).toBe(false);
  });

  it.each([
    ['a value that is not a RID', { heartwood: 'rad:nope' }],
    ['a name ending in .git', { 'heartwood.git': RID_A }],
    ['a reserved name', { search: RID_A }],
    ['a name that is a RID', { [RID_B.slice(4)]: RID_A }],
    ['a name with a slash', { 'a/b': RID_A }],
    ['a list instead of a map', [RID_A]],
  ])('rejects %s', (_what, aliases) => {
    expect(() => parseProfileConfig(withAliases(aliases))).toThrow('"web.aliases" must map alias names to RIDs');
  });
});

describe('isRepositoryAliasName', () => {
  it('takes 1–64 letters, digits, dot, underscore and dash that cannot be read as a RID', () => {
    for (const name of ['a', 'heartwood', 'Pillow', 'x'.repeat(64), '0day', 'a.b_c-d']) expect(isRepositoryAliasName(name)).toBe(true);
    for (const name of ['', 'x'.repeat(65), '-a', '.a', 'a b', 'a/b', 'é', 'rad:a', 'x.git', 'X.GIT', 'API', 'raw', RID_A, RID_A.slice(4)]) {
      expect(isRepositoryAliasName(name)).toBe(false);
    }
  });
});
