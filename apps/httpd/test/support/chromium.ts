import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where Debian's `chromium` package installs its launcher (CI installs it, see .ci/run). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether {@link CHROMIUM} is installed. */
export function hasChromium(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** One CDP event: its method and parameters. */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * Headless Chromium driven over the Chrome DevTools Protocol on `--remote-debugging-pipe`
 * (fd 3: commands in, fd 4: answers and events out, each message JSON ended by a NUL byte).
 * One page target is attached (flat session); every event of it is kept in {@link events}.
 */
export class HeadlessChromium {
  readonly events: CdpEvent[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private session = '';
  private buffered = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly input: Writable,
  ) {
    const output = child.stdio[4] as Readable;
    output.setEncoding('utf8');
    output.on('data', (text: string) => this.receive(text));
    child.on('exit', () => this.failAll(new Error('chromium exited')));
    // A pipe closed by a crashed browser fails the commands waiting, not the test process.
    input.on('error', (error: Error) => this.failAll(error));
    output.on('error', (error: Error) => this.failAll(error));
  }

  /**
   * Starts Chromium with a fresh profile in `profileDir` and opens a blank page with the
   * Network, Page, Runtime and Log domains on.
   */
  static async launch(profileDir: string): Promise<HeadlessChromium> {
    const flags = [
      '--headless',
      '--remote-debugging-pipe',
      `--user-data-dir=${profileDir}`,
      // Tests run as root in CI containers, where Chromium's sandbox cannot start.
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--no-default-browser-check',
      // The browser's own traffic (updates, safe browsing), which the page's requests are not.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      'about:blank',
    ];
    const child = spawn(CHROMIUM, flags, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const browser = new HeadlessChromium(child, child.stdio[3] as Writable);
    const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
    browser.session = String(sessionId);
    for (const domain of ['Network', 'Page', 'Runtime', 'Log']) await browser.send(`${domain}.enable`, {}, true);
    return browser;
  }

  /** Sends a command to the browser, or to the attached page with `toPage`, and waits for its result. */
  send(method: string, params: Record<string, unknown> = {}, toPage = false): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const message = { id, method, params, ...(toPage ? { sessionId: this.session } : {}) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.input.write(`${JSON.stringify(message)}\0`);
    });
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  async evaluate(expression: string): Promise<unknown> {
    const answer = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, true);
    if (answer['exceptionDetails'] !== undefined) throw new Error(`page script failed: ${JSON.stringify(answer['exceptionDetails'])}`);
    return (answer['result'] as { value?: unknown }).value;
  }

  /**
   * Evaluates `expression` in the page until it is truthy, and returns that value.
   * @param timeoutMs - a bound on the wait (a slow, shared machine), not a timing assertion
   */
  async waitFor(expression: string, timeoutMs = 120_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await this.evaluate(expression);
      if (value !== null && value !== undefined && value !== false && value !== 0 && value !== '') return value;
      if (Date.now() > deadline) throw new Error(`never true within ${timeoutMs} ms: ${expression}`);
      await sleep(50);
    }
  }

  /** Stops Chromium and waits for it to exit. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }

  private receive(text: string): void {
    this.buffered += text;
    let end = this.buffered.indexOf('\0');
    while (end !== -1) {
      const message = JSON.parse(this.buffered.slice(0, end)) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      this.buffered = this.buffered.slice(end + 1);
      if (message.id !== undefined) this.settle(message.id, message);
      else if (message.method !== undefined) this.events.push({ method: message.method, params: message.params ?? {} });
      end = this.buffered.indexOf('\0');
    }
  }

  private failAll(error: Error): void {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  private settle(id: number, message: { result?: Record<string, unknown>; error?: { message: string } }): void {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (message.error !== undefined) pending?.reject(new Error(message.error.message));
    else pending?.resolve(message.result ?? {});
  }
}
