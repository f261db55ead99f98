import { detectArchiveKind } from './archive-format.js';

describe('detectArchiveKind', () => {
  it.each([
    ['main.tar.gz', 'main', 'tar.gz'],
    ['main.tar', 'main', 'tar'],
    ['feature/x.zip', 'feature/x', 'zip'],
    ['v1.0', 'v1.0', null],
    ['main.tar.zst', 'main.tar.zst', null],
  ])('splits %s into %s and %s', (text, name, format) => {
    const detected = detectArchiveKind(text);
    expect(detected.name).toBe(name);
    expect(detected.kind?.format ?? null).toBe(format);
  });
});
