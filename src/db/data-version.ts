// SQLite's change counter (`PRAGMA data_version` on the read connection) read at most once per
// event-loop turn. Each read is a read transaction (two fcntl lock calls; measured at about 15 µs
// per API request on a 2-vCPU VM, a tenth of the request). Remembering it for the turn is safe:
// - a commit by this process (its writer connection) forgets the value at once, so the next
//   request sees it, as before;
// - a commit by another process or thread (the CLI, the page-view writer) is seen from the next
//   turn on. Requests handled in this turn were already received when the turn began, so they
//   are not later than that commit: answering them with the state before it is what they would
//   have got a moment earlier. A request sent after the commit is handled in a later turn.
export class DataVersion {
  private remembered: number | undefined;

  constructor(private readonly read: () => number) {}

  /** The counter now (as of this event-loop turn, or this process's last write). */
  readonly current = (): number => {
    if (this.remembered === undefined) {
      this.remembered = this.read();
      setImmediate(this.forget);
    }
    return this.remembered;
  };

  /** Forgets the remembered value: called after every statement on this process's writer connection. */
  readonly forget = (): void => {
    this.remembered = undefined;
  };
}
