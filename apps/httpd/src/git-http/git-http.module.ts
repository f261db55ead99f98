import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GitHttpController } from './git-http.controller.js';
import { GitHttpService } from './git-http.service.js';

/** Request bodies of git's smart HTTP, handed to git unread (streamed, never buffered). */
const GIT_REQUEST_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'];

/** Read-only git over smart HTTP: `/{rid}.git/…` and `/{rid}.git/{nid}/…`. */
@Module({ controllers: [GitHttpController], providers: [GitHttpService] })
export class GitHttpModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addContentTypeParser(GIT_REQUEST_TYPES, (_request, _payload, done) => done(null, undefined));
  }
}
