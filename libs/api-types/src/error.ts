/**
 * Error body of every failed request (behaviour.md Part A "Errors"): `error` is the message
 * (`"Not Found"`, `"Method Not Allowed"`, `"Internal Server Error"` or a 400 message naming
 * the parameter), `code` repeats the HTTP status. Keys in this order.
 */
export interface ErrorBody {
  error: string;
  code: number;
}

/** Body of the one non-object error answer: 413 for a blob or readme above 4 MiB (api.md). */
export type TooLargeBody = [];
