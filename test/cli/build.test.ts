// `sitewright` never runs code older than its sources: bin/sitewright.js builds dist/ first when
// src/ changed since the last build (bin/build.js), and only then. Tried on a copy of bin/ and the
// TypeScript settings with a small src/ of its own, so the project's dist/ is left alone.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;

function sitewright(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(dir, 'bin/sitewright.js')],
      { env: { PATH: process.env.PATH } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) || 1 : 0, stdout, stderr });
      },
    );
  });
}
const writeSource = (path: string, text: string) => {
  mkdirSync(join(dir, 'src', path, '..'), { recursive: true });
  writeFileSync(join(dir, 'src', path), text);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitewright-build-'));
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json'])
    cpSync(join(ROOT, file), join(dir, file));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeSource('cli/main.ts', "import { word } from './word.ts';\nconsole.log(word);\n");
  writeSource('cli/word.ts', "export const word: string = 'one';\n");
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('bin/sitewright.js', () => {
  it('builds dist/ when there is none, then runs it without building again', async () => {
    expect(await sitewright()).toEqual({
      code: 0,
      stdout: 'one\n',
      stderr: 'sitewright: not built yet; building...\n',
    });
    expect(existsSync(join(dir, 'dist/cli/word.js'))).toBe(true);
    expect(await sitewright()).toEqual({ code: 0, stdout: 'one\n', stderr: '' });
  });

  it('builds again when a source changed, and drops the output of a removed source', async () => {
    writeSource('cli/main.ts', "import { word } from './other.ts';\nconsole.log(word);\n");
    writeSource('cli/other.ts', "export const word: string = 'two';\n");
    rmSync(join(dir, 'src/cli/word.ts'));
    expect(await sitewright()).toEqual({
      code: 0,
      stdout: 'two\n',
      stderr: 'sitewright: src/ changed since the last build; building...\n',
    });
    expect(existsSync(join(dir, 'dist/cli/word.js'))).toBe(false);
    expect(await sitewright()).toEqual({ code: 0, stdout: 'two\n', stderr: '' });
  });

  it('builds once when several commands start at the same time', async () => {
    writeSource('cli/other.ts', "export const word: string = 'four';\n");
    const runs = await Promise.all([sitewright(), sitewright(), sitewright()]);
    expect(runs.map((r) => [r.code, r.stdout])).toEqual([
      [0, 'four\n'],
      [0, 'four\n'],
      [0, 'four\n'],
    ]);
    expect(existsSync(join(dir, 'dist/.build.lock'))).toBe(false);
  });

  it('reports type errors on stderr and still runs the new code (npm run typecheck is the check)', async () => {
    writeSource('cli/other.ts', "export const word: number = 'three';\n");
    const res = await sitewright();
    expect([res.code, res.stdout]).toEqual([0, 'three\n']);
    expect(res.stderr).toContain('building...');
    expect(res.stderr).toContain('TS2322');
  });
});
