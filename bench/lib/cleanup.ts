// What a benchmark must undo however it ends (servers, temporary directories, databases): run
// in reverse order by runCleanup() from a finally block, or on Ctrl-C, SIGTERM or a closed terminal (SIGHUP).
const steps: (() => unknown)[] = [];
let running: Promise<void> | undefined;

/** Registers an undo step; returns a function that unregisters it (when it was done already). */
export function onCleanup(step: () => unknown): () => void {
  steps.push(step);
  return () => {
    const i = steps.indexOf(step);
    if (i >= 0) steps.splice(i, 1);
  };
}

export function runCleanup(): Promise<void> {
  running ??= (async () => {
    while (steps.length > 0) {
      const step = steps.pop()!;
      try {
        await step();
      } catch (error) {
        console.error('cleanup step failed:', error);
      }
    }
  })();
  return running;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping servers and removing temporary files...`);
    void runCleanup().finally(() => process.exit(130));
  });
}

/** Runs a benchmark's main, undoes what it set up however it ends, and exits with its code. */
export async function runBenchmark(main: () => Promise<number>): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (error) {
    console.error(error);
  } finally {
    await runCleanup();
  }
  process.exit(code);
}
