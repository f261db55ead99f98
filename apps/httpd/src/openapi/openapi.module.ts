import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller.js';

/** The API's own OpenAPI document. */
@Module({ controllers: [OpenApiController] })
export class OpenApiModule {}
