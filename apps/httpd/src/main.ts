import 'reflect-metadata';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

@Injectable()
class S { hi() { return { ok: true }; } }
@Controller()
class C { constructor(private readonly s: S) {} @Get() get() { return this.s.hi(); } }
@Module({ controllers: [C], providers: [S] })
class M {}
const app = await NestFactory.create<NestFastifyApplication>(M, new FastifyAdapter(), { logger: false });
await app.listen(18080, '127.0.0.1');
const r = await fetch('http://127.0.0.1:18080/');
console.log(r.status, await r.text());
await app.close();
