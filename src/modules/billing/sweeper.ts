// Looks every few minutes for clients past due for longer than their organization allows
// (Settings → Billing). Each episode is claimed row by row in the database, so every instance may
// run a sweeper and none acts twice.
import type { BillingAutomations } from './automations.ts';

const EVERY_MS = 5 * 60_000;

export class BillingSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly automations: BillingAutomations,
    private readonly logger?: { error(obj: object, msg?: string): void },
    private readonly everyMs = EVERY_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.automations.sweepPastDue().catch((error: unknown) => {
        this.logger?.error({ err: error }, 'billing sweeper: the sweep failed');
      });
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
