import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'golden');

/** The text a golden file holds for a body: 2-space JSON, key order as sent, final newline. */
function goldenText(body: unknown): string {
  return `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * Compares a response body with `apps/httpd/test/golden/<name>.json` as text, so key order is
 * part of the contract. `UPDATE_GOLDEN=1` rewrites the file instead (review the diff by hand
 * against docs/api.md and docs/decisions.md before keeping it).
 */
export function expectGolden(name: string, body: unknown): void {
  const path = join(GOLDEN_DIR, `${name}.json`);
  const actual = goldenText(body);
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`golden file ${name}.json is missing: run the test with UPDATE_GOLDEN=1 and review it`);
  }
  expect(actual).toBe(expected);
}
