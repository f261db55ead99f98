// `npm run openapi`: rewrites docs/openapi.json from the api-types schemas and route table.
import { writeFileSync } from 'node:fs';
import { readServerVersion } from '../config/version.js';
import { buildOpenApiDocument } from './openapi-document.js';

/** The checked-in copy, relative to the repository root. */
const OPENAPI_FILE = new URL('../../../../docs/openapi.json', import.meta.url);

/** The document as written to the file (2-space JSON, final newline). */
export function openApiFileText(): string {
  return `${JSON.stringify(buildOpenApiDocument(readServerVersion()), null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === new URL(process.argv[1], 'file://').href) {
  writeFileSync(OPENAPI_FILE, openApiFileText());
  process.stdout.write(`wrote ${OPENAPI_FILE.pathname}\n`);
}
