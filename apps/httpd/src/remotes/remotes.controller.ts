import { Controller, Get, Param } from '@nestjs/common';
import type { Remote } from '@forge-httpd/api-types';
import type { Nid } from '@forge-httpd/identity';
import { NidPipe } from '../platform/params.pipes.js';
import { RemotesService } from './remotes.service.js';

/** docs/api.md 15–16 (no Cache-Control: signed refs move). */
@Controller('repos/:rid')
export class RemotesController {
  constructor(private readonly remotes: RemotesService) {}

  @Get('remotes')
  listRemotes(@Param('rid') rid: string): Promise<Remote[]> {
    return this.remotes.listRemotes(rid);
  }

  @Get('remotes/:peer')
  getRemote(@Param('rid') rid: string, @Param('peer', NidPipe) peer: Nid): Promise<Remote> {
    return this.remotes.getRemote(rid, peer);
  }
}
