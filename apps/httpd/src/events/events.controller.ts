import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BinaryRoute } from '../platform/binary-answer.js';
import { EventHub } from './event-hub.service.js';

/** Live updates as Server-Sent Events (docs/api.md "Live updates"). */
@Controller()
export class EventsController {
  constructor(private readonly hub: EventHub) {}

  @BinaryRoute()
  @Get('events')
  allEvents(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.hub.open({ request, reply, ridText: null });
  }

  @BinaryRoute()
  @Get('repos/:rid/events')
  repositoryEvents(@Param('rid') rid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.hub.open({ request, reply, ridText: rid });
  }
}
