// The package must stay usable from a browser bundle: esbuild bundles it for the browser
// platform, where a Node built-in (`node:fs`, `buffer`, …) cannot be resolved and fails the
// build; the metafile is checked too, so a polyfilled or external built-in is named.
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const entry = join(import.meta.dirname, 'index.ts');
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

async function bundle(): Promise<{ code: Uint8Array; inputs: string[]; imports: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((item) => item.path));
  return { code: result.outputFiles[0]?.contents ?? new Uint8Array(), inputs, imports };
}

describe('browser bundle of @forge-httpd/api-types', () => {
  it('bundles for the browser platform without any Node built-in', async () => {
    const { inputs, imports } = await bundle();
    expect(imports.filter((path) => builtins.has(path) || path.startsWith('node:'))).toEqual([]);
    expect(inputs.filter((path) => !path.includes('libs/api-types/src/') && !path.includes('node_modules/valibot/'))).toEqual([]);
  });

  it('stays small: under 40 KB minified, 12 KB gzipped', async () => {
    // Measured 2026-11-23: see the design notes in docs/development.md (schemas, route table and client).
    const { code } = await bundle();
    expect(code.length).toBeLessThan(40 * 1024);
    expect(gzipSync(code).length).toBeLessThan(12 * 1024);
  });
});
