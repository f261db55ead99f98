import { Readiness } from './readiness.js';

describe('Readiness', () => {
  it('answers 503 starting until the build resolves, then 200, then 503 stopping', async () => {
    const readiness = new Readiness();
    let finish: () => void = () => undefined;
    readiness.track(new Promise<void>((resolve) => (finish = resolve)));
    expect(readiness.answer()).toEqual({ status: 503, body: { error: 'Service Unavailable', code: 503, status: 'starting' } });
    finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(readiness.answer()).toEqual({ status: 200, body: { status: 'ready' } });
    readiness.stopping();
    expect(readiness.answer().status).toBe(503);
    expect(readiness.state).toBe('stopping');
  });

  it('stays not ready when the build fails', async () => {
    const readiness = new Readiness();
    readiness.track(Promise.reject(new Error('unreadable storage')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(readiness.answer()).toEqual({ status: 503, body: { error: 'Service Unavailable', code: 503, status: 'failed' } });
  });
});
