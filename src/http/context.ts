import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { OrgService } from '../modules/orgs/service.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { ProviderRegistry } from '../sites/generate/provider.ts';
import type { PreviewSigner } from '../sites/publish/preview.ts';

/** What every route plugin is given: the app's collaborators, built once by the app factory. */
export interface AppContext {
  config: Config;
  database: Database;
  orgs: OrgService;
  rateLimiter: RateLimiter;
  /** The AI providers configured, by model. */
  providers: ProviderRegistry;
  /** Signs and checks preview links. */
  preview: PreviewSigner;
}
