// Production runs compiled JavaScript: `sitewright start` runs dist/ (`npm run build`, which
// test/global-setup.ts ran) with no TypeScript loader in the process and no compiler process beside
// it, its page-view writer thread runs the compiled writer-thread.js, and nothing it imports is
// TypeScript. Without dist/, the command says to build and runs nothing.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../helpers/server-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/sitewright.js');
const run = promisify(execFile);
const onLinux = existsSync('/proc/self/status');

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): string[] {
  const children: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat)!;
      if (Number(rest!.split(' ')[1]) === pid) children.push(`${entry} ${comm}`);
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

/** The modules `file` imports (static and dynamic imports with a literal specifier). */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [
    ...code.matchAll(
      /(?:^|[;\s])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm,
    ),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

describe('the compiled product', () => {
  it('imports no TypeScript and no loader, from bin/sitewright.js through all of dist/', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          expect(target, `${file} imports ${specifier}`).toMatch(/\.js$/);
          expect(existsSync(target), `${file} imports ${specifier}, which is missing`).toBe(true);
          visit(target);
        } else if (!specifier.startsWith('node:')) {
          packages.add(
            specifier
              .split('/')
              .slice(0, specifier.startsWith('@') ? 2 : 1)
              .join('/'),
          );
        }
      }
    };
    visit(BIN);
    expect(seen).toContain(join(ROOT, 'dist/cli/main.js'));
    expect(seen).toContain(join(ROOT, 'dist/main.js'));
    expect(seen).toContain(join(ROOT, 'dist/modules/analytics/capture.js'));
    expect(existsSync(join(ROOT, 'dist/modules/analytics/writer-thread.js'))).toBe(true);
    for (const loader of ['tsx', 'esbuild', 'typescript', 'ts-node']) expect(packages).not.toContain(loader);
  });

  it('runs the page-view writer thread from writer-thread.js under plain node', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitewright-compiled-'));
    try {
      const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
      await run(process.execPath, [BIN, 'migrate'], { env });
      // A prune is a round trip to the writer thread; a failure to start it is logged as an error.
      const script = `
        import { PageViewCapture } from ${JSON.stringify(join(ROOT, 'dist/modules/analytics/capture.js'))};
        const errors = [];
        const capture = new PageViewCapture({ database: { dataDir: ${JSON.stringify(dataDir)} }, flushMs: 60000, rawRetentionDays: 30 }, { warn() {}, error: (e) => errors.push(String(e.err)) });
        await capture.prune();
        await capture.close();
        console.log(JSON.stringify(errors));`;
      writeFileSync(join(dataDir, 'prune.mjs'), script);
      const { stdout } = await run(process.execPath, [join(dataDir, 'prune.mjs')], { env, cwd: ROOT });
      expect(JSON.parse(stdout)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('bin/sitewright.js', () => {
  it('runs dist/cli/main.js', async () => {
    const { stdout, stderr } = await run(process.execPath, [BIN, '--help'], {
      env: { PATH: process.env.PATH },
    });
    expect(stdout).toMatch(/^Usage: sitewright <command>\n/);
    expect(stderr).toBe('');
  });

  it('says in one line to build, and exits 1, when dist/ is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitewright-unbuilt-'));
    try {
      cpSync(BIN, join(dir, 'bin/sitewright.js'));
      const res = await run(process.execPath, [join(dir, 'bin/sitewright.js'), 'start'], {
        env: { PATH: process.env.PATH },
      }).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect([res.code, res.stdout, res.stderr]).toEqual([
        1,
        '',
        'sitewright: not built; run npm run build\n',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!onLinux)('the started server (node bin/sitewright.js start)', () => {
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sitewright-compiled-'));
    server = new ServerProcess(await freePort(), { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    await server.start();
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('has no TypeScript loader and no process beside it', () => {
    const pid = server.pid!;
    // No loader flag on its command line, nor through NODE_OPTIONS.
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(1)).toEqual([
      BIN,
      'start',
    ]);
    expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).not.toContainEqual(
      expect.stringMatching(/^NODE_OPTIONS=/),
    );
    // tsx ran esbuild as a child process to compile on load.
    expect(childrenOf(pid)).toEqual([]);
    expect(readFileSync(`/proc/${pid}/maps`, 'utf8')).not.toMatch(/esbuild|tsx/);
  });
});

describe('the production layout check', () => {
  it('warns at start-up when the sites share the dashboard’s registrable domain, and only then', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitewright-layout-'));
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: 'https://app.agency.co.uk' };
    try {
      const shared = new ServerProcess(await freePort(), { ...env, SITES_DOMAIN: 'sites.agency.co.uk' });
      await shared.start();
      await shared.kill('SIGTERM');
      expect(shared.logs).toContain(
        'SITES_DOMAIN shares the registrable domain agency.co.uk with PUBLIC_URL',
      );
      const apart = new ServerProcess(await freePort(), { ...env, SITES_DOMAIN: 'agencysites.co.uk' });
      await apart.start();
      await apart.kill('SIGTERM');
      expect(apart.logs).not.toContain('registrable domain');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
