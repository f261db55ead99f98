// Every document the docs and the code comments send a reader to exists in the repository, and
// every section they name by its title (`docs/decisions.md, "Limits"`) is a heading or a bold
// lead-in of that document, so a reader who follows a pointer always lands somewhere.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/** Tracked markdown files, and the sources whose comments cite them (tests and builders' sample content aside). */
const citingFiles = execFileSync('git', ['ls-files', '*.md', '*.ts'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file !== '')
  .filter((file) => !/\.spec\.ts$|\/test\/|\/golden\/|libs\/builder\/src\//.test(file));

const titlesOf = new Map<string, string[]>();
function titles(file: string): string[] {
  let found = titlesOf.get(file);
  if (found === undefined) {
    const text = readFileSync(join(root, file), 'utf8');
    const headings = [...text.matchAll(/^#+\s+(.+)$/gm)].map((match) => match[1] ?? '');
    const leads = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1] ?? '');
    found = [...headings, ...leads].map(flatten);
    titlesOf.set(file, found);
  }
  return found;
}

/** A title as cited: comment markers, markup and line breaks removed. */
function flatten(text: string): string {
  return text
    .replace(/\n\s*(\*|\/\/)?\s*/g, ' ')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Paths cited as `dir/name.md` or `NAME.md` (a file of its own, not sample text such as Readme.md). */
const CITATION = /((?:\.\.\/)*(?:[\w.-]+\/)+[\w.-]+\.md|\b[A-Z][A-Z_]+\.md)(?:,? "([^"]+)")?/g;

function resolveCited(from: string, cited: string): string | null {
  for (const candidate of [normalize(join(dirname(from), cited)), normalize(cited)]) {
    if (existsSync(join(root, candidate))) return candidate;
  }
  return null;
}

it('cites only documents that exist, and sections they have', () => {
  const broken: string[] = [];
  for (const file of citingFiles) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(CITATION)) {
      const cited = match[1] ?? '';
      if (cited.startsWith('bench-results/') || cited.includes('<')) continue;
      const target = resolveCited(file, cited);
      if (target === null) {
        broken.push(`${file}: ${cited} does not exist`);
        continue;
      }
      const section = match[2] === undefined ? undefined : flatten(match[2]);
      if (section !== undefined && !titles(target).some((title) => title.startsWith(section) || title.includes(section))) {
        broken.push(`${file}: ${target} has no section "${section}"`);
      }
    }
  }
  expect(broken).toEqual([]);
});
