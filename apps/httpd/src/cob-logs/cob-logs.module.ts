import { Module } from '@nestjs/common';
import { CobLogsController } from './cob-logs.controller.js';
import { CobLogsService } from './cob-logs.service.js';

/** The change-log routes of any COB type (`/repos/{rid}/cobs/{typeName}…`). */
@Module({ controllers: [CobLogsController], providers: [CobLogsService] })
export class CobLogsModule {}
