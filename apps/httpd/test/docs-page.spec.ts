import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { type FixtureContext, getBytes, getUndecoded, rawRequest, useFixtureServer } from './support/index.js';
import { type CdpEvent, CHROMIUM, HeadlessChromium, hasChromium } from './support/chromium.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';

const NOT_FOUND = '{"error":"Not Found","code":404}';
const RENDERER = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The `docs/…` asset URLs the page names, in page order. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="(docs\/[^"]+)"/g)].map((match) => match[1] ?? '');
}

const fixture: FixtureContext = useFixtureServer();

describe('GET /api/v1/docs', () => {
  it('answers an HTML page under a policy that loads nothing from elsewhere, revalidated by ETag', async () => {
    const page = await getBytes(fixture.url('/api/v1/docs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = page.bytes.toString('utf8');
    expect(html).not.toMatch(/<script>|<style|style=|https?:/);
    expect(assetUrls(html).map((url) => url.replace(/\?v=[\w-]{12}$/, ''))).toEqual([
      'docs/swagger-ui.css',
      'docs/favicon-32x32.png',
      'docs/swagger-ui-bundle.js',
      'docs/init.js',
    ]);
    const again = await getBytes(fixture.url('/api/v1/docs'), { headers: { 'if-none-match': page.headers.get('etag') ?? '' } });
    expect([again.status, again.bytes.length]).toEqual([304, 0]);
    const head = await getUndecoded(fixture.url('/api/v1/docs'), { method: 'HEAD' });
    expect([head.status, head.body.length, head.headers['etag'], head.headers['content-length']]).toEqual([
      200,
      0,
      page.headers.get('etag'),
      String(page.bytes.length),
    ]);
  });

  it('serves the renderer files from the installed package, cached for a year, compressed on request', async () => {
    const html = (await getBytes(fixture.url('/api/v1/docs'))).bytes.toString('utf8');
    const types: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', png: 'image/png' };
    for (const url of assetUrls(html).filter((url) => !url.startsWith('docs/init.js'))) {
      const name = url.slice('docs/'.length, url.indexOf('?'));
      const asset = await getBytes(fixture.url(`/api/v1/${url}`), { headers: { 'accept-encoding': 'identity' } });
      expect([name, asset.status, asset.headers.get('content-type')]).toEqual([name, 200, types[name.split('.').pop() ?? '']]);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect(asset.bytes.equals(readFileSync(join(RENDERER, name)))).toBe(true);
      const etag = asset.headers.get('etag') ?? '';
      expect(etag.slice(1, 13)).toBe(url.slice(-12));
      const revalidated = await getBytes(fixture.url(`/api/v1/${url}`), { headers: { 'accept-encoding': 'identity', 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
    }
    const bundle = await getUndecoded(fixture.url('/api/v1/docs/swagger-ui-bundle.js'), { headers: { 'accept-encoding': 'br' } });
    expect([bundle.headers['content-encoding'], bundle.headers['vary']]).toEqual([
      'br',
      'origin, access-control-request-method, access-control-request-headers, accept-encoding',
    ]);
    expect(brotliDecompressSync(bundle.body).equals(readFileSync(join(RENDERER, 'swagger-ui-bundle.js')))).toBe(true);
    const head = await getUndecoded(fixture.url('/api/v1/docs/swagger-ui-bundle.js'), { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect([head.status, head.body.length, head.headers['etag'], head.headers['content-length']]).toEqual([
      200,
      0,
      bundle.headers['etag'],
      String(bundle.body.length),
    ]);
    const init = await getBytes(fixture.url('/api/v1/docs/init.js'));
    expect(init.bytes.toString('utf8')).toContain("url: new URL('openapi.json', document.baseURI).href");
  });

  it('answers the JSON 404 for any other name, never reading a path from the request, and 405 for other methods', async () => {
    const names = [
      'index.html',
      'swagger-initializer.js',
      'swagger-ui-bundle.js.map',
      'package.json',
      '..%2Fpackage.json',
      '%2e%2e%2f%2e%2e%2fpackage.json',
      'swagger-ui.css%00',
    ];
    for (const name of names) {
      const answer = await rawRequest(fixture.server.baseUrl, { path: `/api/v1/docs/${name}` });
      expect([name, answer.status, answer.text]).toEqual([name, 404, NOT_FOUND]);
    }
    const nested = await rawRequest(fixture.server.baseUrl, { path: '/api/v1/docs/swagger-ui-dist/swagger-ui.css' });
    expect([nested.status, nested.text]).toEqual([404, NOT_FOUND]);
    const posted = await rawRequest(fixture.server.baseUrl, { path: '/api/v1/docs', method: 'POST' });
    expect([posted.status, posted.headers.get('allow'), posted.text]).toEqual([405, 'GET, HEAD', '{"error":"Method Not Allowed","code":405}']);
  });
});

// Headless Chromium (Debian's package at /usr/bin/chromium; CI installs it, see .ci/run).
const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) console.warn(`docs page browser test skipped: no ${CHROMIUM} (Debian: apt-get install chromium)`);

describeBrowser('the docs page in headless Chromium', () => {
  let profile: string;
  let browser: HeadlessChromium;

  beforeAll(async () => {
    profile = await makeTempDir();
    browser = await HeadlessChromium.launch(profile);
    // Set before any page script runs: every CSP violation the page reports is kept.
    await browser.send(
      'Page.addScriptToEvaluateOnNewDocument',
      {
        source:
          "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
      },
      true,
    );
    await browser.send('Page.navigate', { url: fixture.url('/api/v1/docs') }, true);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await removeTempDir(profile);
  });

  const events = (method: string): CdpEvent[] => browser.events.filter((event) => event.method === method);

  it('shows every operation of the OpenAPI document', async () => {
    await browser.waitFor("document.querySelectorAll('.opblock').length > 0");
    const document = (await (await fetch(fixture.url('/api/v1/openapi.json'))).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    const shown = (await browser.evaluate(
      "[...document.querySelectorAll('.opblock')].map((block) => block.querySelector('.opblock-summary-method').textContent.toLowerCase() + ' ' + block.querySelector('.opblock-summary-path').dataset.path)",
    )) as string[];
    expect(expected.length).toBeGreaterThan(40);
    expect(shown.sort()).toEqual(expected.sort());
  }, 180_000);

  it("tries GET /api/v1/node with the renderer's try-it-out and shows the answer", async () => {
    const block = "[...document.querySelectorAll('.opblock')].find((b) => b.querySelector('.opblock-summary-path').dataset.path === '/api/v1/node')";
    await browser.waitFor(`(${block}) !== undefined`);
    await browser.evaluate(`(${block}).querySelector('.opblock-summary-control').click()`);
    await browser.waitFor(`(${block}).querySelector('.try-out__btn') !== null`);
    await browser.evaluate(`(${block}).querySelector('.try-out__btn').click()`);
    await browser.waitFor(`(${block}).querySelector('.btn.execute') !== null`);
    await browser.evaluate(`(${block}).querySelector('.btn.execute').click()`);
    const shown = await browser.waitFor(`(${block}).querySelector('.live-responses-table .response-col_description pre')?.textContent`);
    const status = await browser.evaluate(`(${block}).querySelector('.live-responses-table .response .response-col_status').textContent.trim()`);
    expect(status).toBe('200');
    expect(JSON.parse(String(shown))).toMatchObject({ id: fixture.nid('seed') });
    const requested = events('Network.requestWillBeSent').map((event) => (event.params['request'] as { url: string }).url);
    expect(requested).toContain(fixture.url('/api/v1/node'));
  }, 180_000);

  it('sends every request to the server it came from, and breaks no rule of its policy', async () => {
    await browser.waitFor("document.querySelectorAll('.opblock').length > 0");
    const origin = new URL(fixture.server.baseUrl).origin;
    const requested = events('Network.requestWillBeSent').map((event) => (event.params['request'] as { url: string }).url);
    // `data:` URLs are the images embedded in the stylesheet: read from it, never requested.
    const fetched = requested.filter((url) => !url.startsWith('data:'));
    expect(fetched).toEqual(expect.arrayContaining([`${origin}/api/v1/docs`, `${origin}/api/v1/openapi.json`]));
    expect(fetched.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(await browser.evaluate('window.cspViolations')).toEqual([]);
    const failed = events('Network.loadingFailed').map((event) => [event.params['errorText'], event.params['blockedReason']]);
    expect(failed).toEqual([]);
    const problems = events('Log.entryAdded')
      .map((event) => event.params['entry'] as { level: string; source: string; text: string })
      .filter((entry) => entry.level === 'error' || entry.source === 'security');
    expect(problems).toEqual([]);
    expect(events('Runtime.exceptionThrown')).toEqual([]);
  }, 180_000);
});
