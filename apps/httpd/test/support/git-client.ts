import { execFile } from 'node:child_process';

/** Output of {@link runGitClient}. */
export interface GitClientOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** The real git client, isolated from the user's and system's configuration. */
function clientEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

/**
 * Runs `git <args>` in `cwd` as a user would (clone, fetch, ls-remote against the server).
 * @throws the exec error (with stderr) when git exits non-zero
 */
export function runGitClient(args: readonly string[], cwd: string): Promise<GitClientOutput> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd, env: clientEnvironment(cwd), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error as Error, { stderr }));
      else resolve({ stdout, stderr });
    });
  });
}
