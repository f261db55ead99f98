import { ridFromOid } from '@forge-httpd/identity';
import type { RepositorySummary } from '@forge-httpd/storage';
import { MatchTier, matchTier, TextSearch, wordMatches, wordsOf } from './text-search.js';

/** A repository named `name` with `description` (only what the search reads). */
function summary(at: number, name: string, description: string, visibility = 'public'): RepositorySummary {
  return {
    rid: ridFromOid(at.toString(16).padStart(40, '0')),
    identityHead: null,
    document: { visibility: { type: visibility } },
    project: { name, description, defaultBranch: 'main' },
    searchName: name.toLowerCase(),
    error: null,
  } as unknown as RepositorySummary;
}

describe('wordMatches', () => {
  it.each([
    ['heartwood', 'heartwood', true],
    ['heart', 'heartwood', true],
    ['wood', 'heartwood', false], // inside the word, not its start
    ['hartwood', 'heartwood', true], // a letter missing
    ['heartwoood', 'heartwood', true], // a letter too many
    ['heartwoad', 'heartwood', true], // one letter changed
    ['haertwood', 'heartwood', true], // two neighbours swapped
    ['heartwoud', 'heartwoodcli', true], // a prefix of the word, one letter changed
    ['07918', '07919', false], // a number: exact only
    ['eartwood', 'heartwood', true], // the first letter missing
    ['hartwod', 'heartwood', false], // two edits
    ['wod', 'wood', false], // shorter than five letters: exact only
    ['woods', 'wood', true], // one letter too many at the end
    ['explorer', 'explore', true],
    ['exploder', 'explore', false],
  ])('%s matches %s: %s', (word, target, expected) => {
    expect(wordMatches(word, target)).toBe(expected);
  });
});

describe('wordsOf', () => {
  it('splits at anything but letters and digits, lower-cased', () => {
    expect(wordsOf('Radicle-HTTPd: a JSON API, v2 (über)')).toEqual(['radicle', 'httpd', 'a', 'json', 'api', 'v2', 'über']);
  });
});

describe('TextSearch', () => {
  const summaries = [
    summary(1, 'heartwood', 'The Radicle protocol and node'),
    summary(2, 'explorer', 'Web client for heartwood seeds'),
    summary(3, 'my-heartwood-fork', 'A fork'),
    summary(4, 'secret-heartwood', 'private', 'private'),
    summary(5, 'pillow', 'Python imaging library'),
    summary(6, 'git', 'Distributed revision control'),
  ];
  const find = (query: string): [string, number][] =>
    new TextSearch().find({ version: 1, summaries }, query).map((match) => [match.summary.searchName as string, match.tier]);

  it('finds names at 0 and elsewhere, then descriptions, never private ones', () => {
    expect(find('heartwood')).toEqual([
      ['heartwood', MatchTier.NameStart],
      ['explorer', MatchTier.Description],
      ['my-heartwood-fork', MatchTier.NameElsewhere],
    ]);
  });

  it('matches words with one typo in words of five letters or more, every query word', () => {
    expect(find('imagign')).toEqual([['pillow', MatchTier.Words]]);
    expect(find('pyhton imaging')).toEqual([['pillow', MatchTier.Words]]);
    expect(find('pyhton revision')).toEqual([]);
    expect(find('gti')).toEqual([]);
    expect(find('distributd control')).toEqual([['git', MatchTier.Words]]);
  });

  it('gives every repository the tier matchTier gives it alone', () => {
    for (const query of ['heartwood', 'hartwood', 'web', 'client heartwod', 'e', '', 'protocl node', 'x\ny']) {
      const expected = summaries.map((item) => [item.searchName, matchTier(item, query)]).filter(([, tier]) => tier !== null);
      expect(find(query)).toEqual(expected);
    }
  });
});
