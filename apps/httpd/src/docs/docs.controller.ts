import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BinaryRoute, sendBinary } from '../platform/binary-answer.js';
import { DocsService } from './docs.service.js';

/** `GET /api/v1/docs` (the API in a browser) and `GET /api/v1/docs/{file}` (its assets). */
@Controller()
export class DocsController {
  constructor(private readonly docs: DocsService) {}

  @BinaryRoute()
  @Get('docs')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.docs.page());
  }

  @BinaryRoute()
  @Get('docs/:file')
  async asset(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.docs.asset(file, request.headers['accept-encoding']));
  }
}
