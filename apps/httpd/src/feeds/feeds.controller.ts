import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BinaryRoute, sendBinary } from '../platform/binary-answer.js';
import { requestOrigin } from './request-origin.js';
import { FeedsService } from './feeds.service.js';

/** Atom feeds of a repository (docs/api.md "Feeds"). */
@Controller('repos/:rid/feeds')
export class FeedsController {
  constructor(private readonly feeds: FeedsService) {}

  @BinaryRoute()
  @Get('commits.atom')
  async commits(@Param('rid') rid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.feeds.feed(rid, 'commits', requestOrigin(request.headers)));
  }

  @BinaryRoute()
  @Get('issues.atom')
  async issues(@Param('rid') rid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.feeds.feed(rid, 'issues', requestOrigin(request.headers)));
  }

  @BinaryRoute()
  @Get('patches.atom')
  async patches(@Param('rid') rid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.feeds.feed(rid, 'patches', requestOrigin(request.headers)));
  }
}
