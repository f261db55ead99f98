import { isPublicSummary, type RepositorySummary } from '@forge-httpd/storage';

/**
 * How a repository matched a search, best first (docs/api.md operation 7): its name starts with
 * the query, contains it elsewhere, its description contains it, or every query word is in its
 * name or description words, with one typo allowed in words of five letters or more.
 */
export const MatchTier = { NameStart: 0, NameElsewhere: 1, Description: 2, Words: 3 } as const;
export type MatchTier = (typeof MatchTier)[keyof typeof MatchTier];

/** A repository that matched, and how. */
export interface TextMatch {
  readonly summary: RepositorySummary;
  readonly tier: MatchTier;
}

/** Query words looked at; the rest of a longer query is ignored by the word match. */
const MAX_QUERY_WORDS = 8;
/** Query words at least this long may differ from a word of the text by one edit. */
const TYPO_MIN_LENGTH = 5;
const DIGIT = /\p{N}/u;

/** Whether a query word may carry a typo: five letters or more, no digit (numbers match exactly). */
function mayHaveTypo(word: string): boolean {
  return word.length >= TYPO_MIN_LENGTH && !DIGIT.test(word);
}
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** Lower-cased words of `text`, split at anything that is not a letter or a digit. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(NOT_WORD)
    .filter((word) => word !== '');
}

/**
 * Whether `word` (of the query) matches `target` (a word of the text): `target` starts with it,
 * or, for a query word of {@link TYPO_MIN_LENGTH} letters or more (no digit), a prefix of
 * `target` is one substitution, insertion, deletion or swap of two neighbours away from it.
 */
export function wordMatches(word: string, target: string): boolean {
  return target.startsWith(word) || (mayHaveTypo(word) && withinOneEdit(word, target));
}

/** Whether a prefix of `target` is one substitution, insertion, deletion or neighbour swap away from `word`. */
function withinOneEdit(word: string, target: string): boolean {
  if (target.length < word.length - 1) return false;
  let at = 0;
  while (at < word.length && word.charCodeAt(at) === target.charCodeAt(at)) at += 1;
  // Past the first difference the rest must line up again, one edit later.
  return (
    sameRun(word, at + 1, target, at + 1, word.length - at - 1) || // substitution
    sameRun(word, at + 1, target, at, word.length - at - 1) || // an extra letter in the query
    sameRun(word, at, target, at + 1, word.length - at) || // a letter missing from the query
    (word.charCodeAt(at) === target.charCodeAt(at + 1) &&
      word.charCodeAt(at + 1) === target.charCodeAt(at) &&
      sameRun(word, at + 2, target, at + 2, word.length - at - 2))
  );
}

function sameRun(a: string, aFrom: number, b: string, bFrom: number, length: number): boolean {
  if (bFrom + length > b.length) return false;
  for (let offset = 0; offset < length; offset += 1) if (a.charCodeAt(aFrom + offset) !== b.charCodeAt(bFrom + offset)) return false;
  return true;
}

/** The tier of one repository for `query` (lower-cased), or null: the rule {@link TextSearch} applies in bulk. */
export function matchTier(summary: RepositorySummary, query: string): MatchTier | null {
  const name = summary.searchName;
  if (name === null || !isPublicSummary(summary)) return null;
  const at = query.includes('\n') ? -1 : name.indexOf(query);
  if (at === 0) return MatchTier.NameStart;
  if (at > 0) return MatchTier.NameElsewhere;
  const description = descriptionOf(summary);
  if (!query.includes('\n') && description.includes(query)) return MatchTier.Description;
  const words = wordsOf(query).slice(0, MAX_QUERY_WORDS);
  const targets = [...wordsOf(name), ...wordsOf(description)];
  if (words.length > 0 && words.every((word) => targets.some((target) => wordMatches(word, target)))) return MatchTier.Words;
  return null;
}

function descriptionOf(summary: RepositorySummary): string {
  return summary.project?.description.toLowerCase() ?? '';
}

/** Lower-cased texts joined by `\n` (which no name or description the table holds contains), and where each starts. */
interface Joined {
  readonly text: string;
  readonly starts: readonly number[];
}

/** The distinct words of a table's texts. */
interface Vocabulary {
  readonly words: readonly string[];
  /** The entries (summary positions) each word occurs in. */
  readonly holders: readonly Int32Array[];
  /**
   * Words by their first and by their second character (code unit): a prefix one edit away
   * from a query word starts with its first or second character, or has one of them second.
   */
  readonly byFirst: ReadonlyMap<number, Int32Array>;
  readonly bySecond: ReadonlyMap<number, Int32Array>;
}

interface Table {
  readonly version: number;
  readonly summaries: readonly RepositorySummary[];
  readonly names: Joined;
  readonly descriptions: Joined;
  /** Every distinct word of the names and descriptions, and the summaries (by position) each occurs in. */
  readonly vocabulary: Vocabulary;
  /** Per-entry scratch of one query (tier found, query words reached), reused: a query runs synchronously. */
  readonly tiers: Uint8Array;
  readonly reached: Uint8Array;
}

/**
 * Search over the project names and descriptions of an index snapshot. The texts of public
 * projects are joined into one string per field once per index version, so a substring query is
 * a few native `indexOf` scans; the word match scans the distinct words once per query word.
 */
export class TextSearch {
  private table: Table | null = null;

  /** Public projects matching `query` (lower-cased), in the order of `summaries` (RID order), each with its tier. */
  find(snapshot: { version: number; summaries: readonly RepositorySummary[] }, query: string): TextMatch[] {
    const table = this.tableFor(snapshot);
    const tiers = table.tiers.fill(255);
    if (!query.includes('\n')) {
      for (const [entry, at] of scan(table.names, query)) tiers[entry] = at === 0 ? MatchTier.NameStart : MatchTier.NameElsewhere;
      for (const [entry] of scan(table.descriptions, query)) if (tiers[entry] === 255) tiers[entry] = MatchTier.Description;
    }
    for (const entry of wordMatchesOf(table, query)) if (tiers[entry] === 255) tiers[entry] = MatchTier.Words;
    const matches: TextMatch[] = [];
    for (let entry = 0; entry < tiers.length; entry += 1) {
      if (tiers[entry] !== 255) matches.push({ summary: table.summaries[entry] as RepositorySummary, tier: tiers[entry] as MatchTier });
    }
    return matches;
  }

  private tableFor(snapshot: { version: number; summaries: readonly RepositorySummary[] }): Table {
    if (this.table?.version === snapshot.version) return this.table;
    const summaries = snapshot.summaries.filter((summary) => summary.searchName !== null && isPublicSummary(summary));
    const descriptions = summaries.map((summary) => descriptionOf(summary).replaceAll('\n', ' '));
    const vocabulary = new Map<string, number[]>();
    for (const [entry, summary] of summaries.entries()) {
      for (const word of new Set([...wordsOf(summary.searchName as string), ...wordsOf(descriptions[entry] as string)])) {
        const entries = vocabulary.get(word);
        if (entries === undefined) vocabulary.set(word, [entry]);
        else entries.push(entry);
      }
    }
    this.table = {
      version: snapshot.version,
      summaries,
      names: join(summaries.map((summary) => summary.searchName as string)),
      descriptions: join(descriptions),
      vocabulary: vocabularyOf(vocabulary),
      tiers: new Uint8Array(summaries.length),
      reached: new Uint8Array(summaries.length),
    };
    return this.table;
  }
}

function vocabularyOf(holders: ReadonlyMap<string, readonly number[]>): Vocabulary {
  // Code-unit order, as `firstAtOrAfter` searches it: the words starting with a prefix are one run.
  const words = [...holders.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byPosition = (position: number): Map<number, Int32Array> => {
    const lists = new Map<number, number[]>();
    for (const [at, word] of words.entries()) {
      if (word.length <= position) continue;
      const code = word.charCodeAt(position);
      const list = lists.get(code);
      if (list === undefined) lists.set(code, [at]);
      else list.push(at);
    }
    return new Map([...lists].map(([code, list]) => [code, Int32Array.from(list)]));
  };
  return {
    words,
    holders: words.map((word) => Int32Array.from(holders.get(word) ?? [])),
    byFirst: byPosition(0),
    bySecond: byPosition(1),
  };
}

function join(texts: readonly string[]): Joined {
  const starts: number[] = [];
  let offset = 0;
  for (const text of texts) {
    starts.push(offset);
    offset += text.length + 1;
  }
  return { text: texts.join('\n'), starts };
}

/** `[entry, position]` of the first occurrence of `query` in each text that holds it, in entry order. */
function* scan(joined: Joined, query: string): Generator<[number, number]> {
  if (joined.starts.length === 0) return;
  let from = 0;
  for (let hit = joined.text.indexOf(query, from); hit >= 0; hit = joined.text.indexOf(query, from)) {
    const entry = lastStartAtOrBefore(joined.starts, hit);
    yield [entry, hit - (joined.starts[entry] as number)];
    // Only the first occurrence per text counts: continue with the next one.
    from = joined.starts[entry + 1] ?? joined.text.length + 1;
    if (from > joined.text.length) return;
  }
}

/**
 * Entries where every query word matches a word ({@link wordMatches}); none for a query without
 * words. `reached[entry]` counts the query words matched so far, so an entry reached twice by
 * one query word (two of its words match) counts once.
 */
function wordMatchesOf(table: Table, query: string): Iterable<number> {
  const words = wordsOf(query).slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) return [];
  const { words: vocabulary, holders } = table.vocabulary;
  const reached = table.reached.fill(0);
  for (let done = 0; done < words.length; done += 1) {
    const word = words[done] as string;
    const reach = (at: number): void => {
      const entries = holders[at] as Int32Array;
      for (let i = 0; i < entries.length; i += 1) if (reached[entries[i] as number] === done) reached[entries[i] as number] = done + 1;
    };
    // Words starting with the query word: a run of the sorted words. Then, for a long query
    // word, the words one edit away (index loops, no iterator garbage; `reach` is idempotent).
    for (let at = firstAtOrAfter(vocabulary, word); at < vocabulary.length && (vocabulary[at] as string).startsWith(word); at += 1) reach(at);
    if (!mayHaveTypo(word)) continue;
    const { byFirst, bySecond } = table.vocabulary;
    const first = word.charCodeAt(0);
    const second = word.charCodeAt(1);
    // A word in two of these lists is checked twice; `reach` counts it once.
    for (const candidates of [byFirst.get(first), byFirst.get(second), bySecond.get(first), bySecond.get(second)]) {
      if (candidates === undefined) continue;
      for (let i = 0; i < candidates.length; i += 1) {
        const at = candidates[i] as number;
        if (withinOneEdit(word, vocabulary[at] as string)) reach(at);
      }
    }
  }
  const found: number[] = [];
  for (let entry = 0; entry < reached.length; entry += 1) if (reached[entry] === words.length) found.push(entry);
  return found;
}

/** Index of the first of the sorted `words` that is not below `word` (code-unit order). */
function firstAtOrAfter(words: readonly string[], word: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((words[middle] as string) < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Index of the greatest value of the ascending `starts` that is ≤ `offset`. */
function lastStartAtOrBefore(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
