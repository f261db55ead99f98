import { parseGitProtocolVersion } from './git-protocol.js';

describe('parseGitProtocolVersion', () => {
  it.each([
    [undefined, 0],
    ['version=2', 2],
    ['version=1', 1],
    ['object-format=sha1:version=2', 2],
    ['version=3', 0],
    ['version=\u00ff2', 0],
    [['version=1', 'version=2'], 2],
  ])('reads %p as version %i', (header, version) => {
    expect(parseGitProtocolVersion(header)).toBe(version);
  });
});
