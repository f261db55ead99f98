import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BinaryRoute, sendBinary } from '../platform/binary-answer.js';
import { GitHttpService } from './git-http.service.js';

/** Route paths of this controller, outside the `api/v1` prefix (see app.factory.ts). */
export const GIT_HTTP_PATHS = [
  ':repo/info/refs',
  ':repo/:nid/info/refs',
  ':repo/git-upload-pack',
  ':repo/:nid/git-upload-pack',
  ':repo/git-receive-pack',
  ':repo/:nid/git-receive-pack',
] as const;

/**
 * Read-only git smart HTTP at `/{rid}.git/…` and a peer's namespace at `/{rid}.git/{nid}/…`
 * (radicle-httpd `git.rs`). Handlers take `@Res()`: the answers are git's own streams.
 */
@Controller()
export class GitHttpController {
  constructor(private readonly git: GitHttpService) {}

  @Get(GIT_HTTP_PATHS[0])
  @BinaryRoute()
  async infoRefs(@Param('repo') repo: string, @Query('service') service: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.git.advertise({ repo }, { service, headers: request.headers, head: request.method === 'HEAD' }));
  }

  @Get(GIT_HTTP_PATHS[1])
  @BinaryRoute()
  async peerInfoRefs(
    @Param('repo') repo: string,
    @Param('nid') nid: string,
    @Query('service') service: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendBinary(request, reply, await this.git.advertise({ repo, nid }, { service, headers: request.headers, head: request.method === 'HEAD' }));
  }

  @Post(GIT_HTTP_PATHS[2])
  @BinaryRoute()
  async uploadPack(@Param('repo') repo: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.git.serve({ repo }, { body: request.raw, headers: request.headers }));
  }

  @Post(GIT_HTTP_PATHS[3])
  @BinaryRoute()
  async peerUploadPack(@Param('repo') repo: string, @Param('nid') nid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.git.serve({ repo, nid }, { body: request.raw, headers: request.headers }));
  }

  @Post(GIT_HTTP_PATHS[4])
  receivePack(@Param('repo') repo: string): Promise<never> {
    return this.git.refusePush({ repo });
  }

  @Post(GIT_HTTP_PATHS[5])
  peerReceivePack(@Param('repo') repo: string, @Param('nid') nid: string): Promise<never> {
    return this.git.refusePush({ repo, nid });
  }
}
