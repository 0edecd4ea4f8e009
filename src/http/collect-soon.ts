// A full garbage collection, asked for once a large request body is done with. A body's memory is
// held by Buffers outside V8's own heap; V8 collects them when its heap fills or when more outside
// memory is allocated since its last collection (tens of MB), so a server that goes quiet after
// large bodies kept up to that much of them alive for as long as it stayed quiet. A collection
// of the server's heap takes a few milliseconds; it is asked for at most once a second. (The
// same way to reach V8's collector is what Jest uses to find leaks.)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const DELAY_MS = 1_000;

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
let pending: NodeJS.Timeout | undefined;

/** Collects garbage within a second, unless a collection is already on its way. */
export function collectSoon(): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = undefined;
    collect();
  }, DELAY_MS).unref();
}
