import { BusyError } from '@forge-httpd/identity';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { firstValueFrom, from, type Observable } from 'rxjs';
import { BigPage, MAX_WAITING_PAGE_BUILDS, PAGE_BUILD_SLOTS, PageBuildsInterceptor } from './page-builds.js';

class Routes {
  @BigPage()
  big(): void {}

  small(): void {}
}

function contextOf(handler: () => void): ExecutionContext {
  return { getHandler: () => handler } as unknown as ExecutionContext;
}

/** A handler that runs until its `finish` is called, counting the handlers running. */
function gatedHandlers(): { handler: () => CallHandler; running: () => number; finishAll: () => void } {
  let running = 0;
  const finishers: Array<() => void> = [];
  const handler = (): CallHandler => ({
    handle: (): Observable<unknown> =>
      from(
        (async () => {
          running++;
          await new Promise<void>((resolve) => finishers.push(resolve));
          running--;
          return 'page';
        })(),
      ),
  });
  return { handler, running: () => running, finishAll: () => finishers.splice(0).forEach((finish) => finish()) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PageBuildsInterceptor', () => {
  it('builds big pages a bounded number at a time, the rest in turn, and refuses past the waiting bound', async () => {
    const interceptor = new PageBuildsInterceptor(new Reflector(), { pressed: false });
    const gated = gatedHandlers();
    const total = PAGE_BUILD_SLOTS + MAX_WAITING_PAGE_BUILDS;
    const pages = Array.from({ length: total }, () => firstValueFrom(interceptor.intercept(contextOf(Routes.prototype.big), gated.handler())));
    await settle();
    expect(gated.running()).toBe(PAGE_BUILD_SLOTS);
    expect(interceptor.pending).toBe(total);
    expect(() => interceptor.intercept(contextOf(Routes.prototype.big), gated.handler())).toThrow(BusyError);
    // Other routes are never held back.
    const small = gatedHandlers();
    const smallPage = firstValueFrom(interceptor.intercept(contextOf(Routes.prototype.small), small.handler()));
    await settle();
    expect(small.running()).toBe(1);
    small.finishAll();
    expect(await smallPage).toBe('page');
    while (interceptor.pending > 0) {
      gated.finishAll();
      await settle();
      expect(gated.running()).toBeLessThanOrEqual(PAGE_BUILD_SLOTS);
    }
    expect(await Promise.all(pages)).toEqual(Array.from({ length: total }, () => 'page'));
  });

  it('frees the slot of a page that failed', async () => {
    const interceptor = new PageBuildsInterceptor(new Reflector(), { pressed: false });
    const failing: CallHandler = { handle: () => from(Promise.reject(new Error('no such commit'))) };
    await expect(firstValueFrom(interceptor.intercept(contextOf(Routes.prototype.big), failing))).rejects.toThrow('no such commit');
    expect(interceptor.pending).toBe(0);
  });

  it('serializes a JSON answer of a big page to its bytes, with the JSON content type', async () => {
    const interceptor = new PageBuildsInterceptor(new Reflector(), { pressed: false });
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => void (headers[name] = value) };
    const context = { getHandler: () => Routes.prototype.big, switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ExecutionContext;
    const answer = { id: 'x', files: Array.from({ length: 40 }, (_, index) => ({ path: `f${index}`, text: 'é 😀' })) };
    const bytes = await firstValueFrom(interceptor.intercept(context, { handle: () => from(Promise.resolve(answer)) }));
    expect(Buffer.isBuffer(bytes) && bytes.toString('utf8')).toBe(JSON.stringify(answer));
    expect(headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    expect(interceptor.pending).toBe(0);
  });

  it('refuses big pages while clients have more than the budget of answers unread, and serves them once they took them', async () => {
    const sends = { pressed: true };
    const interceptor = new PageBuildsInterceptor(new Reflector(), sends);
    const page: CallHandler = { handle: () => from(Promise.resolve('page')) };
    await expect(firstValueFrom(interceptor.intercept(contextOf(Routes.prototype.big), page))).rejects.toBeInstanceOf(BusyError);
    expect(interceptor.pending).toBe(0);
    expect(await firstValueFrom(interceptor.intercept(contextOf(Routes.prototype.small), page))).toBe('page');
    sends.pressed = false;
    expect(await firstValueFrom(interceptor.intercept(contextOf(Routes.prototype.big), page))).toBe('page');
  });
});
