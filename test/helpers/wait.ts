/** Polls `check` until it returns a truthy value (which is returned) or the time runs out. */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the generation `read` returns has succeeded, and fails at once, saying so, when it
 * failed or was cancelled. A loaded machine gets time: giving up quietly after a few seconds left
 * the tests after it looking at a project with no pages.
 */
export async function untilSucceeded(
  read: () => Promise<{ status: string; error?: unknown }>,
  timeoutMs = 30_000,
): Promise<void> {
  await waitUntil(
    async () => {
      const generation = await read();
      if (generation.status === 'failed' || generation.status === 'cancelled') {
        throw new Error(`the generation ended ${generation.status}: ${JSON.stringify(generation.error)}`);
      }
      return generation.status === 'succeeded';
    },
    timeoutMs,
    'the generation to succeed',
  );
}
