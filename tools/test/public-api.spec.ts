// The libraries' public surfaces, as snapshots: adding or removing an export is a visible
// decision in review (update with UPDATE_PUBLIC_API=1 and read the diff).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const SNAPSHOTS = join(import.meta.dirname, 'public-api');

const ENTRY_POINTS: Record<string, string> = {
  '@forge-httpd/bounded-cache': 'libs/bounded-cache/src/index.ts',
  '@forge-httpd/identity': 'libs/identity/src/index.ts',
  '@forge-httpd/storage': 'libs/storage/src/index.ts',
  '@forge-httpd/storage/write': 'libs/storage/src/write.ts',
  '@forge-httpd/storage/testing': 'libs/storage/src/testing.ts',
  '@forge-httpd/cob': 'libs/cob/src/index.ts',
  '@forge-httpd/cob/write': 'libs/cob/src/write.ts',
  '@forge-httpd/diff': 'libs/diff/src/index.ts',
  '@forge-httpd/api-types': 'libs/api-types/src/index.ts',
  '@forge-httpd/builder': 'libs/builder/src/index.ts',
  '@forge-httpd/builder/scratch': 'libs/builder/src/scratch.ts',
};

/** The names an entry point exports (`type` for type-only ones), sorted. */
function exportedNames(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const names: string[] = [];
  for (const match of text.matchAll(/export (type )?\{([^}]*)\}/g)) {
    for (const item of (match[2] ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const isType = match[1] !== undefined || item.startsWith('type ');
      const name =
        item
          .replace(/^type /, '')
          .split(' as ')
          .pop()
          ?.trim() ?? '';
      names.push(isType ? `type ${name}` : name);
    }
  }
  for (const match of text.matchAll(/export (?:const|function|class|interface|type) (\w+)/g)) names.push(match[1] ?? '');
  return [...new Set(names)].sort((a, b) => a.replace('type ', '').localeCompare(b.replace('type ', '')));
}

describe.each(Object.entries(ENTRY_POINTS))('%s', (entry, file) => {
  it('exports exactly the reviewed surface', () => {
    const snapshot = join(SNAPSHOTS, `${entry.replace('@forge-httpd/', '').replace('/', '-')}.txt`);
    const actual = `${exportedNames(file).join('\n')}\n`;
    if (process.env['UPDATE_PUBLIC_API'] === '1') {
      mkdirSync(SNAPSHOTS, { recursive: true });
      writeFileSync(snapshot, actual);
      return;
    }
    expect(actual).toBe(readFileSync(snapshot, 'utf8'));
  });
});
