/**
 * Checks a response the e2e suites fetched against the OpenAPI document (`docs/openapi.json`,
 * built here from the same source): the request path is matched to a path template, the status
 * to a documented response, and a JSON body is validated with ajv (JSON Schema 2020-12) against
 * that response's schema. Objects are closed for the check (a key the document does not list is
 * reported) unless the document says `additionalProperties`. A documented, required
 * `cache-control` must have its exact value.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

/** What the check needs of a response. */
export interface ContractResponse {
  readonly url: string;
  readonly method: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Json = Record<string, unknown>;
interface Operation {
  readonly template: string;
  readonly method: string;
  readonly pattern: RegExp;
  readonly responses: Record<string, Json>;
}

const DOCUMENT_ID = 'https://forge-httpd.invalid/openapi.json';
const document = buildOpenApiDocument('test') as { paths: Record<string, Record<string, Json>>; components: Json };
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: DOCUMENT_ID, components: closeObjects(document.components) });
const operations = listOperations();
const validators = new Map<Json, ValidateFunction>();

/** Copies a schema tree, adding `additionalProperties: false` to objects that list properties. */
function closeObjects(value: unknown): Json {
  if (Array.isArray(value)) return value.map(closeObjects) as unknown as Json;
  if (value === null || typeof value !== 'object') return value as Json;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'properties' ? Object.fromEntries(Object.entries(item as Json).map(([name, schema]) => [name, closeObjects(schema)])) : closeObjects(item),
    ]),
  );
  if ('properties' in copy && copy.type === 'object' && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      if (part === '{path}' || part === '{ref}') return '.*';
      if (/^\{\w+\}$/.test(part)) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

function listOperations(): Operation[] {
  const list = Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      template,
      method: method.toUpperCase(),
      pattern: templatePattern(template),
      responses: operation.responses as Record<string, Json>,
    })),
  );
  // Literal segments win over parameters, and a rest parameter (`{path}`, `{ref}`) comes last.
  const rank = (template: string): number => (/\{(path|ref)\}/.test(template) ? 1000 : 0) + (template.match(/\{/g)?.length ?? 0);
  return list.sort((a, b) => rank(a.template) - rank(b.template));
}

function resolve(entry: Json): Json {
  const ref = entry.$ref;
  if (typeof ref !== 'string') return entry;
  const name = ref.slice('#/components/responses/'.length);
  return (document.components.responses as Record<string, Json>)[name] ?? {};
}

function validatorFor(schema: Json): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    const absolute = JSON.parse(JSON.stringify(closeObjects(schema)).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as Json;
    validate = ajv.compile(absolute);
    validators.set(schema, validate);
  }
  return validate;
}

function headerProblems(where: string, documented: Json, headers: Headers): string[] {
  const cacheControl = (documented.headers as Record<string, Json> | undefined)?.['cache-control'];
  const expected = (cacheControl?.schema as Json | undefined)?.const;
  if (cacheControl?.required !== true || typeof expected !== 'string') return [];
  const actual = headers.get('cache-control');
  return actual === expected ? [] : [`${where}: cache-control ${JSON.stringify(actual)}, documented ${JSON.stringify(expected)}`];
}

/**
 * Lists what is wrong with a response according to the OpenAPI document: empty when it matches
 * or when its path is no documented route (unknown routes answer the plain 404 body).
 */
export function openApiProblems(response: ContractResponse): string[] {
  const url = new URL(response.url);
  const method = response.method === 'HEAD' ? 'GET' : response.method;
  const where = `${response.method} ${url.pathname}${url.search} (${response.status})`;
  const operation = operations.find((item) => item.method === method && item.pattern.test(url.pathname));
  if (operation === undefined || response.status === 304) return [];
  const entry = operation.responses[String(response.status)] ?? operation.responses.default;
  if (entry === undefined) return [`${where}: status not documented for ${method} ${operation.template}`];
  const documented = resolve(entry);
  const problems = response.status < 300 ? headerProblems(where, documented, response.headers) : [];
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('json') || response.text === '' || response.method === 'HEAD') return problems;
  const schema = (documented.content as Record<string, Json> | undefined)?.['application/json']?.schema as Json | undefined;
  if (schema === undefined) return [...problems, `${where}: JSON body not documented for ${operation.template}`];
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [...problems, `${where}: body is not JSON`];
  }
  const validate = validatorFor(schema);
  if (validate(body)) return problems;
  const errors = (validate.errors ?? []).map(
    (error) => `${where}: at ${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
  return [...problems, ...errors];
}

/** Throws one readable error listing the OpenAPI problems of a response, if any. */
export function assertOpenApiAccepts(response: ContractResponse): void {
  const problems = openApiProblems(response);
  if (problems.length === 0) return;
  const shown = problems.slice(0, 10);
  const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more` : '';
  throw new Error(`the response does not match docs/openapi.json:\n${shown.join('\n')}${more}`);
}
