// A process-local hint that the outbox has new work, so a dispatcher in this process claims it at
// once instead of at its next poll. Only a hint: the database is the truth, and dispatchers in
// other processes find the same work by polling.
type Listener = () => void;

const listeners = new Set<Listener>();
let scheduled = false;

/** Tells local dispatchers to look for due deliveries soon (after the current transaction, usually). */
export function signalOutbox(): void {
  if (scheduled || listeners.size === 0) return;
  scheduled = true;
  // setImmediate runs after the pending microtasks, among them the COMMIT of the caller's
  // transaction on SQLite; on PostgreSQL the commit may land later and the next poll catches it.
  setImmediate(() => {
    scheduled = false;
    for (const listener of listeners) listener();
  });
}

/** Subscribes a dispatcher; returns the unsubscribe function. */
export function onOutboxSignal(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
