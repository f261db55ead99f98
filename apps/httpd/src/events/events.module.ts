import { Module } from '@nestjs/common';
import { EventHub } from './event-hub.service.js';
import { EventsController } from './events.controller.js';

/** `GET /events` and `GET /repos/{rid}/events`. */
@Module({ controllers: [EventsController], providers: [EventHub] })
export class EventsModule {}
