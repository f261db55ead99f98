import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { BinaryAnswer } from '../platform/binary-answer.js';
import { compress, COMPRESSION_MIN_BYTES, type ContentCoding, negotiateEncoding } from '../platform/compression.js';
import { computeEtag, etagForCoding } from '../platform/etag.js';
import { DOCS_CSP, docsPageHtml, INIT_SCRIPT, INIT_SCRIPT_NAME, RENDERER_FILES } from './docs-page.js';

/** Assets are addressed by version (`?v=`): cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page names the current asset versions: revalidated on every visit (ETag → 304). */
const REVALIDATE = 'no-cache';
/** The `vary` of a compressible answer, CORS names first as on every answer. */
const VARY_ENCODING = 'origin, access-control-request-method, access-control-request-headers, accept-encoding';
const NOSNIFF = { 'x-content-type-options': 'nosniff' };

/** One served file in one content coding, with its strong validator. */
interface Encoded {
  readonly body: Buffer;
  readonly etag: string;
}

/** One served file: its bytes, and its compressed forms once a client asked for them. */
interface Asset extends Encoded {
  readonly contentType: string;
  readonly compressible: boolean;
  readonly compressed: Map<ContentCoding, Promise<Encoded>>;
}

async function assetOf(body: Buffer, contentType: string): Promise<Asset> {
  const compressible = body.length >= COMPRESSION_MIN_BYTES && !contentType.startsWith('image/');
  return { body, etag: await computeEtag(body), contentType, compressible, compressed: new Map() };
}

/** `asset` in `coding`, compressed on the thread pool the first time only. */
function encoded(asset: Asset, coding: ContentCoding): Promise<Encoded> {
  let variant = asset.compressed.get(coding);
  if (variant === undefined) {
    variant = compress(asset.body, coding).then((body) => ({ body, etag: etagForCoding(asset.etag, coding) }));
    asset.compressed.set(coding, variant);
  }
  return variant;
}

/** The folder of the installed `swagger-ui-dist` package. */
function rendererFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/**
 * `GET /api/v1/docs` and its assets: the renderer's files are read from the installed package
 * (only the names of `RENDERER_FILES`; a requested name is looked up, never joined to a path),
 * once, then kept, with each compressed form made when first asked for.
 */
@Injectable()
export class DocsService {
  private assets: Promise<ReadonlyMap<string, Asset>> | undefined;

  /** The HTML page, with the policy that lets it load only from this origin. */
  async page(): Promise<BinaryAnswer> {
    const assets = await this.loadAssets();
    const html = Buffer.from(docsPageHtml((name) => (assets.get(name)?.etag ?? '').slice(1, 13)));
    return {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': REVALIDATE, 'content-security-policy': DOCS_CSP, ...NOSNIFF },
      body: html,
      etag: await computeEtag(html),
    };
  }

  /**
   * One asset of the page, in the coding `acceptEncoding` prefers.
   * @throws NotFoundError (404) for a name not in the list
   */
  async asset(name: string, acceptEncoding: string | undefined): Promise<BinaryAnswer> {
    const asset = (await this.loadAssets()).get(name);
    if (asset === undefined) throw new NotFoundError('docs asset');
    const coding = asset.compressible ? negotiateEncoding(acceptEncoding) : null;
    const { body, etag } = coding === null ? asset : await encoded(asset, coding);
    return {
      headers: {
        'content-type': asset.contentType,
        'cache-control': IMMUTABLE,
        ...NOSNIFF,
        ...(asset.compressible ? { vary: VARY_ENCODING } : {}),
        ...(coding === null ? {} : { 'content-encoding': coding }),
      },
      body,
      etag,
    };
  }

  private loadAssets(): Promise<ReadonlyMap<string, Asset>> {
    this.assets ??= readAssets().catch((error: unknown) => {
      this.assets = undefined;
      throw error;
    });
    return this.assets;
  }
}

async function readAssets(): Promise<ReadonlyMap<string, Asset>> {
  const folder = rendererFolder();
  const assets = new Map<string, Asset>();
  for (const [name, contentType] of Object.entries(RENDERER_FILES)) assets.set(name, await assetOf(await readFile(join(folder, name)), contentType));
  assets.set(INIT_SCRIPT_NAME, await assetOf(Buffer.from(INIT_SCRIPT), 'text/javascript; charset=utf-8'));
  return assets;
}
