// A process-local hint that a generation was queued, so a worker in this process starts it at once
// instead of at its next poll. Only a hint: workers elsewhere find the job by polling.
type Listener = () => void;
const listeners = new Set<Listener>();

export function signalGenerations(): void {
  for (const listener of listeners) setImmediate(listener);
}

export function onGenerationSignal(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
