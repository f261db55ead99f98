import { access } from 'node:fs/promises';
import { hasCommand, runCommand } from './processes.js';

/** A Debian package and the file whose presence says it is installed. */
export interface AptNeed {
  readonly pkg: string;
  /** A command on PATH or an absolute file path. */
  readonly provides: string;
}

export const WRK: AptNeed = { pkg: 'wrk', provides: 'wrk' };
export const CGIT_STACK: readonly AptNeed[] = [
  { pkg: 'cgit', provides: '/usr/lib/cgit/cgit.cgi' },
  { pkg: 'nginx', provides: 'nginx' },
  { pkg: 'fcgiwrap', provides: '/usr/sbin/fcgiwrap' },
];

async function isPresent(need: AptNeed): Promise<boolean> {
  if (!need.provides.startsWith('/')) return hasCommand(need.provides);
  return access(need.provides).then(
    () => true,
    () => false,
  );
}

/**
 * Makes sure the packages are installed, calling `apt-get install` for missing ones unless
 * `allowInstall` is false. Returns null when all are present, else a message saying why not.
 */
export async function ensurePackages(needs: readonly AptNeed[], allowInstall: boolean): Promise<string | null> {
  const missing: AptNeed[] = [];
  for (const need of needs) if (!(await isPresent(need))) missing.push(need);
  if (missing.length === 0) return null;
  const names = missing.map((m) => m.pkg);
  if (!allowInstall) return `missing Debian packages ${names.join(', ')} (--no-install given): apt-get install -y ${names.join(' ')}`;
  console.log(`[bench] installing ${names.join(', ')} with apt-get …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const args = ['install', '-y', '-q', '--no-install-recommends', ...names];
  let result = await runCommand('apt-get', args, { env }).catch((error: Error) => ({ code: -1, stdout: Buffer.alloc(0), stderr: error.message }));
  if (result.code !== 0) {
    // A fresh machine often has no package lists yet: update once and retry.
    await runCommand('apt-get', ['update', '-q'], { env }).catch(() => null);
    result = await runCommand('apt-get', args, { env }).catch((error: Error) => ({ code: -1, stdout: Buffer.alloc(0), stderr: error.message }));
  }
  for (const need of missing) {
    if (!(await isPresent(need))) {
      const why = result.stderr.trim().split('\n').slice(-3).join(' | ');
      return `could not install ${names.join(', ')} with apt-get (are you root, with Debian's package lists reachable?): ${why}`;
    }
  }
  return null;
}
