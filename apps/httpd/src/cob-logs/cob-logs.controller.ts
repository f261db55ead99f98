import { Controller, Get, Param, Query } from '@nestjs/common';
import type { CobChangeLog, CobObject } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CobTypeNamePipe, OidPipe } from '../platform/params.pipes.js';
import { PAGE_QUERY, type ParsedQuery, QueryPipe } from '../platform/query.js';
import { CobLogsService, MAX_COB_OBJECTS_PER_PAGE } from './cob-logs.service.js';

/** docs/api.md, "Collaborative-object change logs". No Cache-Control: they follow refs, revalidated by ETag. */
@Controller('repos/:rid/cobs/:typeName')
export class CobLogsController {
  constructor(private readonly logs: CobLogsService) {}

  @Get()
  list(
    @Param('rid') rid: string,
    @Param('typeName', CobTypeNamePipe) typeName: string,
    @Query(new QueryPipe(PAGE_QUERY)) query: ParsedQuery<typeof PAGE_QUERY>,
  ): Promise<CobObject[]> {
    return this.logs.listObjects(rid, typeName, { page: query.page ?? 0, perPage: query.perPage ?? MAX_COB_OBJECTS_PER_PAGE });
  }

  @Get(':id')
  get(@Param('rid') rid: string, @Param('typeName', CobTypeNamePipe) typeName: string, @Param('id', OidPipe) id: Oid): Promise<CobChangeLog> {
    return this.logs.changeLog(rid, typeName, id);
  }
}
