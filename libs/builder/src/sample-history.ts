import type { GitSignature } from '@forge-httpd/storage';
import type { GeneratedCommit } from './generated-history.js';
import type { FileContent } from './objects.js';

/** A commit author of generated history. */
export interface SampleAuthor {
  readonly name: string;
  readonly email: string;
}

// A 1×1 PNG: gives the demo a binary file for blob and diff endpoints.
const PIXEL_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5d9c2e30000000049454e44ae426082',
  'hex',
);

const OFFSETS = ['+0000', '+0200', '-0500', '+0530'];

type Step = { readonly message: string; readonly changes: Record<string, FileContent | null> };

function sampleSteps(project: string): Step[] {
  const main = `export function main(): void {\n  console.log('${project}');\n}\n`;
  return [
    { message: 'Initial commit\n', changes: { 'README.md': `# ${project}\n`, '.gitignore': 'node_modules/\ndist/\n', LICENSE: 'MIT License\n' } },
    { message: 'Add entry point\n', changes: { 'src/main.ts': main, 'package.json': `{\n  "name": "${project}",\n  "version": "0.1.0"\n}\n` } },
    { message: 'Add logo\n\nA tiny PNG so the tree has a binary file.\n', changes: { 'assets/logo.png': PIXEL_PNG } },
    {
      message: 'Document usage\n',
      changes: { 'README.md': `# ${project}\n\nRun \`npm start\`.\n\n## Notes\n\nSee docs/notes.md.\n` },
    },
    { message: 'Add run script\n', changes: { 'scripts/run.sh': { content: '#!/bin/sh\nexec node dist/main.js "$@"\n', executable: true } } },
    { message: 'Rename main module to index\n', changes: { 'src/main.ts': null, 'src/index.ts': main } },
    { message: 'Add notes with non-ASCII text\n', changes: { 'docs/notes.md': 'Ünïcödé notes: 日本語, émoji 🎉\n' } },
    { message: 'Bump version\n', changes: { 'package.json': `{\n  "name": "${project}",\n  "version": "0.2.0"\n}\n` } },
  ];
}

/**
 * Generates a small, realistic, deterministic history (text, binary, executable, rename,
 * deletion, non-ASCII) for a demo project. Commit i is authored by `authors[i % n]` at
 * `start + i × 5400` s with a varying timezone offset.
 * @param options - project name, authors (at least one), start time in seconds, commit count (max 8)
 * @returns commits, oldest first
 */
export function sampleCommits(options: { project: string; authors: readonly SampleAuthor[]; start: number; count?: number }): GeneratedCommit[] {
  if (options.authors.length === 0) throw new Error('sampleCommits needs an author');
  const steps = sampleSteps(options.project).slice(0, options.count ?? 8);
  return steps.map((step, index) => {
    const person = options.authors[index % options.authors.length] as SampleAuthor;
    const author: GitSignature = {
      name: person.name,
      email: person.email,
      time: options.start + index * 5400,
      offset: OFFSETS[index % OFFSETS.length] as string,
    };
    return { message: step.message, changes: step.changes, author };
  });
}

/**
 * One follow-up commit for forks and pushes: adds or replaces a file.
 * @returns the commit
 */
export function sampleChange(options: { message: string; path: string; content: string; author: SampleAuthor; time: number }): GeneratedCommit {
  return {
    message: `${options.message}\n`,
    changes: { [options.path]: options.content },
    author: { name: options.author.name, email: options.author.email, time: options.time, offset: '+0000' },
  };
}
