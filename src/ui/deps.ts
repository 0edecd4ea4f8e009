// What the pages and each of their route modules are built from (the container provides it).
import type { Config } from '../config.ts';
import type { Services } from '../modules/index.ts';

export interface PagesDeps {
  config: Config;
  services: Services;
  /** The served OpenAPI document, for the API reference page. */
  openApiDocument: () => unknown;
}

export interface RouteDeps extends PagesDeps {
  cookies: { secure: boolean; ttlMs: number };
}
