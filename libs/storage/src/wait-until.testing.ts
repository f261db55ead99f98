import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `condition` until it holds: how a test waits for something to happen (a process to
 * exit, a sweep to run, a background build to finish) instead of sleeping a fixed time.
 * @param condition - checked now and then every 10 ms
 * @param timeoutMs - a bound on the wait, not a timing assertion
 * @throws Error when the condition still does not hold after `timeoutMs`
 */
export async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}
