import T from 'typebox';
import { Compile } from 'typebox/compile';
import { commitDetailSchema } from './typebox-schema.js';
export const commitDetail = commitDetailSchema(T);
const C = Compile(commitDetail);
export const check = (v) => C.Check(v);
export const jsonSchema = () => JSON.parse(JSON.stringify(commitDetail));
