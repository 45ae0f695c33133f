/**
 * A response as the browser receives it: JSON turns every Date into an ISO
 * string. The web takes its types from the server's zod schemas in
 * `core/api/<domain>.ts` through this, instead of declaring them again.
 */
export type Wire<T> = T extends Date
  ? string
  : T extends Array<infer U>
    ? Array<Wire<U>>
    : T extends (...args: never[]) => unknown
      ? T
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;
