// Says which engine-specific suites this run covers, so a green run without services is honest.
import { existsSync } from 'node:fs';

export default function setup(): void {
  const lines = [
    process.env.TEST_DATABASE_URL
      ? `Database: PostgreSQL (TEST_DATABASE_URL), one fresh database per test file`
      : 'Database: SQLite. PostgreSQL suites skipped: set TEST_DATABASE_URL=postgres://... to run the suite on PostgreSQL',
    process.env.REDIS_URL ? 'Redis: REDIS_URL set, Redis suites run' : 'Redis suites skipped: set REDIS_URL=redis://... to run them',
    existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')
      ? 'Chromium found: the browser rendering test runs'
      : 'Browser rendering test skipped: install Chromium (apt-get install chromium) or set CHROMIUM_PATH',
  ];
  process.stdout.write(lines.map((l) => `[sitewright tests] ${l}\n`).join(''));
}
