// The `fresh` package ships no types; this is its one function, as its README documents it.
declare module 'fresh' {
  /** True when the request's conditional headers (If-None-Match, If-Modified-Since) match the response's. */
  export default function fresh(
    reqHeaders: Record<string, string | string[] | undefined>,
    resHeaders: Record<string, unknown>,
  ): boolean;
}
