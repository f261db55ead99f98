import { Type as T } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { commitDetailSchema } from './typebox-schema.js';
export const commitDetail = commitDetailSchema(T);
export const check = (v) => Value.Check(commitDetail, v);
export const jsonSchema = () => JSON.parse(JSON.stringify(commitDetail));
