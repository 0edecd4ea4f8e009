import type { Config } from '../../config.ts';
import type { Services } from '../../modules/index.ts';

/** What a route module is given: the services, and the settings its schemas mention (body limits). */
export interface RouteDeps {
  services: Services;
  config: Config;
}
