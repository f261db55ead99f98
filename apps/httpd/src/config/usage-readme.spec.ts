import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { USAGE } from './command-line.js';

// README's "Command line" section and `--help` describe the same flags and environment variables.
const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
const commandLine = readme.slice(readme.indexOf('## Command line'), readme.indexOf('\n## ', readme.indexOf('## Command line') + 1));

const flags = (text: string): string[] => [...new Set(text.match(/--[a-z][a-z-]+/g) ?? [])].sort();
const variables = (text: string): string[] => [...new Set(text.match(/\b(?:FORGE|RAD)_[A-Z_]+/g) ?? [])].sort();

describe('README and --help', () => {
  it('name the same flags', () => {
    expect(flags(commandLine)).toEqual(flags(USAGE));
  });

  it('name the same environment variables', () => {
    expect(variables(commandLine)).toEqual(variables(USAGE));
  });
});
