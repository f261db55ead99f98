import { Controller, Get } from '@nestjs/common';
import { readServerVersion } from '../config/version.js';
import { CacheControl } from '../platform/cache-control.js';
import { buildOpenApiDocument } from './openapi-document.js';

/** `GET /api/v1/openapi.json`: the OpenAPI 3.1 document, built once from api-types. */
@Controller()
export class OpenApiController {
  private document: Record<string, unknown> | undefined;

  @Get('openapi.json')
  @CacheControl('short')
  openApi(): Record<string, unknown> {
    this.document ??= buildOpenApiDocument(readServerVersion());
    return this.document;
  }
}
