/**
 * Conservative reference-name validation, applied before a name reaches git (on the
 * command line or on cat-file's stdin). It follows `git check-ref-format` and additionally
 * requires `HEAD` or a fully qualified `refs/…` name, so a value can never be read as an
 * option, a revision expression (`^`, `~`, `:`, `@{`, `..`) or a short name.
 */
import { InvalidInputError } from '@forge-httpd/identity';

/**
 * The error for a name that fails validation; its message is safe to show to clients.
 * @param parameter - the parameter named in the message
 */
export function invalidRefName(parameter = 'ref'): InvalidInputError {
  return new InvalidInputError(`Invalid ${parameter}: expected a fully qualified git reference name`);
}

// Control characters, space, and the characters git forbids in ref names.
const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]/;

/**
 * Tells whether `name` is `HEAD` or a valid fully qualified ref name under `refs/`.
 * @param name - candidate ref name
 * @returns true when it is safe to hand to git
 */
export function isValidRefName(name: string): boolean {
  if (name === 'HEAD') return true;
  if (!name.startsWith('refs/') || name.length > 1024) return false;
  if (FORBIDDEN.test(name) || name.includes('..') || name.includes('@{')) return false;
  if (name.endsWith('.') || name.endsWith('/')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** The characters of most ref names (letters, digits, `_`, `-`, `.`, `/`): no forbidden one among them. */
const USUAL_CHARACTERS = /^refs\/[A-Za-z0-9_./-]+$/;
/** Printable ASCII. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * {@link isValidRefName} for names of printable ASCII only, about twice as fast on the
 * usual names (a tracker's `packed-refs` holds tens of thousands): those made of
 * {@link USUAL_CHARACTERS} are checked by a few substring tests, the others fully.
 * @param name - candidate ref name
 * @returns true when it is `HEAD` or a valid `refs/…` name, of printable ASCII
 */
export function isValidAsciiRefName(name: string): boolean {
  if (USUAL_CHARACTERS.test(name) && name.length <= 1024) {
    // No empty or dot-led part, no `..`, no `.lock` anywhere (stricter: such names take the full check).
    const plain = !name.includes('//') && !name.includes('/.') && !name.includes('..') && !name.includes('.lock') && !name.endsWith('.') && !name.endsWith('/');
    if (plain) return true;
  }
  return PRINTABLE_ASCII.test(name) && isValidRefName(name);
}

/**
 * Tells whether `prefix` is a valid ref-name prefix ending at a `/` (e.g. `refs/heads/`),
 * as accepted by {@link GitRepository.listRefs}.
 * @param prefix - candidate prefix
 * @returns true when it is `refs/` or a valid ref name followed by `/`
 */
export function isValidRefPrefix(prefix: string): boolean {
  return prefix === 'refs/' || (prefix.endsWith('/') && isValidRefName(prefix.slice(0, -1)));
}

/**
 * Validates a ref name.
 * @param name - candidate ref name
 * @param parameter - parameter name for the error message
 * @returns the name unchanged
 * @throws InvalidInputError when {@link isValidRefName} is false
 */
export function checkRefName(name: string, parameter = 'ref'): string {
  if (!isValidRefName(name)) throw invalidRefName(parameter);
  return name;
}
