// Readiness as /readyz answers it (the server's and the worker's): each check \`ok\` (or \`not used\`),
// else what is wrong; ready when nothing is wrong. A check that does not answer in time is not ready
// (a hung database, a lost Redis): a probe must answer quickly either way.

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; redis: string };
}

const CHECK_TIMEOUT_MS = 2_000;

/** Runs one check: its answer, its error's message, or that it did not answer in time. */
export async function check(run: () => Promise<string>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run(), late]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

export const fine = (value: string) => value === 'ok' || value === 'not used';

/**
 * The answer's body: `{status, checks}`, with `error` naming what is not ready. A failing check
 * says `failing` and no more: its error (a host name, a database message) goes to the log only.
 */
export function readinessBody({ ready, checks }: Readiness): Record<string, unknown> {
  const shown = Object.fromEntries(
    Object.entries(checks).map(([name, value]) => [
      name,
      fine(value) || value === 'not checked' ? value : 'failing',
    ]),
  );
  if (ready) return { status: 'ready', checks: shown };
  const wrong = Object.entries(checks).filter(([, value]) => !fine(value) && value !== 'not checked');
  return {
    error: `not ready: ${wrong.map(([name]) => name).join(', ')}`,
    status: 'not ready',
    checks: shown,
  };
}
