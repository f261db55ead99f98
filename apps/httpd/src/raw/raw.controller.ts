import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Oid } from '@forge-httpd/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BinaryRoute, sendBinary } from '../platform/binary-answer.js';
import { OidPipe } from '../platform/params.pipes.js';
import { QueryPipe } from '../platform/query.js';
import { ArchiveService } from './archive.service.js';
import { RawService } from './raw.service.js';
import { BigPage } from '../platform/page-builds.js';

/** Every route of this controller is outside the `api/v1` prefix (see app.factory.ts). */
export const RAW_PATHS = ['raw/:rid/:sha', 'raw/:rid/:sha/*', 'raw/:rid/head/*', 'raw/:rid/blobs/:oid', 'raw/:rid/archive/*'] as const;

const PREFIX_QUERY = { prefix: ['true', 'false'] } as const;
type PrefixQuery = { prefix?: 'true' | 'false' };

/** Raw files and archives (radicle-httpd `raw.rs`); bytes are sent by {@link sendBinary}. */
@Controller()
export class RawController {
  constructor(
    private readonly raw: RawService,
    private readonly archives: ArchiveService,
  ) {}

  @BinaryRoute()
  @Get(RAW_PATHS[0])
  async archiveByCommit(
    @Param('rid') rid: string,
    @Param('sha') sha: string,
    @Query(new QueryPipe(PREFIX_QUERY)) query: PrefixQuery,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendBinary(request, reply, await this.archives.byCommit(rid, sha, { ...query, head: request.method === 'HEAD' }));
  }

  @BinaryRoute()
  @BigPage()
  @Get(RAW_PATHS[1])
  async fileAtCommit(
    @Param('rid') rid: string,
    @Param('sha', OidPipe) sha: Oid,
    @Param('*') path: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendBinary(request, reply, await this.raw.fileAtCommit(rid, { sha, path }));
  }

  @BinaryRoute()
  @BigPage()
  @Get(RAW_PATHS[2])
  async fileAtHead(@Param('rid') rid: string, @Param('*') path: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.raw.fileAtHead(rid, path));
  }

  @BinaryRoute()
  @BigPage()
  @Get(RAW_PATHS[3])
  async blob(@Param('rid') rid: string, @Param('oid', OidPipe) oid: Oid, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBinary(request, reply, await this.raw.blob(rid, oid));
  }

  @BinaryRoute()
  @Get(RAW_PATHS[4])
  async archiveByRef(
    @Param('rid') rid: string,
    @Param('*') ref: string,
    @Query(new QueryPipe(PREFIX_QUERY)) query: PrefixQuery,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendBinary(request, reply, await this.archives.byRef(rid, ref, { ...query, head: request.method === 'HEAD' }));
  }
}
