import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_ROUTES } from '@forge-httpd/api-types';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { openApiFileText } from './write-openapi.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

describe('OpenAPI document', () => {
  it('is checked in up to date as docs/openapi.json (run `npm run openapi` after a contract change)', () => {
    expect(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')).toBe(openApiFileText());
  });

  it('documents every JSON route of the route table, the raw and git routes and the docs page', () => {
    const paths = Object.keys(buildOpenApiDocument('0.0.0').paths as object);
    expect(paths).toEqual(expect.arrayContaining(Object.values(JSON_ROUTES).map((route) => route.path)));
    expect(paths).toEqual(expect.arrayContaining(['/raw/{rid}/{sha}/{path}', '/{rid}.git/git-upload-pack', '/api/v1/openapi.json', '/api/v1/docs']));
  });

  it('has component schemas that compile as JSON Schema 2020-12', () => {
    const document = buildOpenApiDocument('0.0.0') as { components: { schemas: Record<string, object> } };
    const ajv = new Ajv2020({ strict: true });
    ajv.addKeyword('components');
    ajv.addSchema({ $id: 'x', components: document.components }, undefined, undefined, false);
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.compile({ $ref: `x#/components/schemas/${name}` })).not.toThrow();
    }
  });
});
