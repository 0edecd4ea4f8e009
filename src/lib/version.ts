// Sitewright's own version, from package.json (src/lib and dist/lib sit at the same depth).
import { createRequire } from 'node:module';

export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;
