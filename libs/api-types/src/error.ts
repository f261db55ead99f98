/**
 * Error bodies (docs/decisions.md "Errors"): `error` is the message (`"Not Found"`,
 * `"Method Not Allowed"`, `"Internal Server Error"` or a 400 message naming the parameter),
 * `code` repeats the HTTP status. Keys in this order.
 */
import * as v from 'valibot';

/** Body of every failed request. */
export const errorBodySchema = v.object({
  error: v.string(),
  code: v.pipe(v.number(), v.integer()),
});
export type ErrorBody = v.InferOutput<typeof errorBodySchema>;

/** Body of the one non-object error answer: 413 for a blob or readme above 4 MiB (docs/api.md). */
export const tooLargeBodySchema = v.strictTuple([]);
export type TooLargeBody = v.InferOutput<typeof tooLargeBodySchema>;
