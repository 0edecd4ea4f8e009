// Builds dist/ (`npm run build`; incremental, so quick when src/ did not change), so that the tests
// which start the real `sitewright` command (bin/sitewright.js) test the compiled product and none
// of them pays for the build; the other tests import the TypeScript sources directly. Then says
// which engine-specific suites this run covers, so a green run without services is honest.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
  });
  if (build.error || build.status !== 0)
    throw new Error(
      `the build (npm run build) failed: ${build.error?.message ?? `exit code ${build.status}`}`,
    );
  const lines = [
    process.env.TEST_DATABASE_URL
      ? `Database: PostgreSQL (TEST_DATABASE_URL), one fresh database per test file`
      : 'Database: SQLite. PostgreSQL suites skipped: set TEST_DATABASE_URL=postgres://... to run the suite on PostgreSQL',
    process.env.REDIS_URL
      ? 'Redis: REDIS_URL set, Redis suites run'
      : 'Redis suites skipped: set REDIS_URL=redis://... to run them',
    existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')
      ? 'Chromium found: the browser suites run'
      : 'Browser suites skipped: install Chromium (apt-get install chromium) or set CHROMIUM_PATH',
    existsSync(process.env.CADDY_PATH ?? '/usr/bin/caddy')
      ? 'Caddy found: the suites behind a front proxy run'
      : 'Front-proxy suites skipped: install Caddy (apt-get install caddy) or set CADDY_PATH',
  ];
  process.stdout.write(lines.map((l) => `[sitewright tests] ${l}\n`).join(''));
}
