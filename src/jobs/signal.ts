// Process-local hints that something is waiting (an event in the outbox, a queued generation) or
// has changed (what a site host serves), so a worker or cache in this process acts at once instead
// of at its next poll or expiry. Only a hint: the database is the truth, and other processes find
// the same by polling (or when their cached answers expire).
export type WorkKind = 'outbox' | 'generations' | 'sites' | 'progress' | 'mail';
type Listener = () => void;

const listeners: Record<WorkKind, Set<Listener>> = {
  outbox: new Set(),
  generations: new Set(),
  sites: new Set(),
  progress: new Set(),
  mail: new Set(),
};
const scheduled: Record<WorkKind, boolean> = {
  outbox: false,
  generations: false,
  sites: false,
  progress: false,
  mail: false,
};

/**
 * Tells local listeners of `kind` to look for due work soon (after the current transaction,
 * usually). A change of sites is delivered at once: the services signal it after their commit,
 * and the edge must forget its answers before the API call returns, so the next request sees it.
 */
export function signalWork(kind: WorkKind): void {
  if (kind === 'sites') {
    for (const listener of listeners.sites) listener();
    return;
  }
  if (scheduled[kind] || listeners[kind].size === 0) return;
  scheduled[kind] = true;
  // setImmediate runs after the pending microtasks, among them the COMMIT of the caller's
  // transaction on SQLite; on PostgreSQL the commit may land later and the next poll catches it.
  setImmediate(() => {
    scheduled[kind] = false;
    for (const listener of listeners[kind]) listener();
  });
}

const stopListeners = new Map<string, Set<Listener>>();

/** Tells this process's runner of job `id` that the job was stopped (a cancel committed). */
export function signalStop(id: string): void {
  for (const listener of stopListeners.get(id) ?? []) listener();
}

/** Runs `listener` when job `id` is stopped in this process; returns the unsubscribe function. */
export function onStop(id: string, listener: Listener): () => void {
  const set = stopListeners.get(id) ?? new Set<Listener>();
  stopListeners.set(id, set.add(listener));
  return () => {
    set.delete(listener);
    if (set.size === 0) stopListeners.delete(id);
  };
}

/** Subscribes a worker to hints of `kind`; returns the unsubscribe function. */
export function onWork(kind: WorkKind, listener: Listener): () => void {
  listeners[kind].add(listener);
  return () => listeners[kind].delete(listener);
}
