import { Type as T } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { commitDetailSchema } from './typebox-schema.js';
export const commitDetail = commitDetailSchema(T);
const C = TypeCompiler.Compile(commitDetail);
export const check = (v) => C.Check(v);
export const jsonSchema = () => JSON.parse(JSON.stringify(commitDetail));
