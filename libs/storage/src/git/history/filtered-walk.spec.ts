import { foldCase } from './filtered-walk.js';

describe('foldCase', () => {
  it('lowers ASCII and other scripts alike', () => {
    expect(foldCase('Émile ÜNICODE <Bob@Example.COM>')).toBe('émile ünicode <bob@example.com>');
    // One character at a time: a capital sigma is σ wherever it stands (no final ς).
    expect(foldCase('ΑΡΓΟΣ')).toBe('αργοσ');
  });

  it('never folds a character onto an ASCII letter it is not a case of', () => {
    // U+212A KELVIN SIGN lowers to "k" and U+0130 to "i" + U+0307: git's ASCII -i does neither.
    expect(foldCase('Temperature \u212A')).toBe('temperature \u212A');
    expect(foldCase('\u0130STANBUL')).toBe('\u0130stanbul');
    expect(foldCase('\u212A').includes('k')).toBe(false);
  });

  it('folds every other character as Unicode lower case does', () => {
    for (let code = 0; code < 0x2200; code++) {
      if (code === 0x130 || code === 0x212a) continue;
      const char = String.fromCodePoint(code);
      expect(foldCase(char)).toBe(char.toLowerCase());
    }
  });
});
