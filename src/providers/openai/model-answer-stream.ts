// Watches a model's JSON answer as it streams in and says when each entry of its top-level
// "files" or "changes" array is complete, so the person waiting sees "Writing about.html" the
// moment the model has written it. A small state machine over the characters, fed chunk by chunk
// (a chunk may end anywhere: inside a string, between a backslash and what it escapes): each
// character is looked at once, nothing is parsed twice. It is not a validator; the whole answer is
// parsed once it has arrived, and that parse decides whether it is valid.

/** An entry of the "files"/"changes" array, reported when its object closes. */
export interface StreamedEntry {
  /** Its "path" as written (undecoded escapes decoded), or undefined when it had none. */
  path: string | undefined;
  /** The keys it has (`content`, `edits`, `delete`, ...). */
  keys: string[];
}

const LISTS = new Set(['files', 'changes']);
/** Keys and paths are short; a longer string is not kept (and its entry reports no path). */
const MAX_CAPTURE = 2_000;

interface Level {
  kind: 'object' | 'array';
  /** Objects: the key whose value comes next (or is being read). */
  key?: string;
  /** Objects: a string read now is a key. */
  expectKey?: boolean;
}

export class AnswerScanner {
  private readonly stack: Level[] = [];
  private inString = false;
  private escaped = false;
  /** The raw text of the string being read, when it is worth keeping (null: skipped). */
  private capture: string | null = null;
  private entry: { path: string | undefined; keys: string[] } | null = null;

  /** Feeds the next piece of the answer; returns the entries that closed within it, in order. */
  push(chunk: string): StreamedEntry[] {
    const done: StreamedEntry[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') {
          this.inString = false;
          this.endString();
          continue;
        } else if (this.capture === null) {
          // Skips a long run of plain characters at once (file contents are most of the answer).
          const next = nextSpecial(chunk, i);
          i = next - 1;
          continue;
        }
        if (this.capture !== null) this.capture = this.capture.length < MAX_CAPTURE ? this.capture + c : null;
        continue;
      }
      switch (c) {
        case '"':
          this.inString = true;
          this.capture = this.wantsString() ? '' : null;
          break;
        case '{':
          this.open('object');
          if (this.atEntry()) this.entry = { path: undefined, keys: [] };
          break;
        case '[':
          this.open('array');
          break;
        case '}':
        case ']': {
          const closingEntry = c === '}' && this.atEntry();
          this.stack.pop();
          if (closingEntry && this.entry) {
            done.push(this.entry);
            this.entry = null;
          }
          break;
        }
        case ':': {
          const top = this.stack.at(-1);
          if (top?.kind === 'object') top.expectKey = false;
          break;
        }
        case ',': {
          const top = this.stack.at(-1);
          if (top?.kind === 'object') top.expectKey = true;
          break;
        }
      }
    }
    return done;
  }

  private open(kind: Level['kind']): void {
    this.stack.push(kind === 'object' ? { kind, expectKey: true } : { kind });
  }

  /** Whether the innermost open object is an entry: {"files": [ HERE ]}. */
  private atEntry(): boolean {
    const s = this.stack;
    return (
      s.length === 3 &&
      s[0]!.kind === 'object' &&
      LISTS.has(s[0]!.key ?? '') &&
      s[1]!.kind === 'array' &&
      s[2]!.kind === 'object'
    );
  }

  private wantsString(): boolean {
    const top = this.stack.at(-1);
    if (top?.kind !== 'object') return false;
    if (top.expectKey) return this.stack.length === 1 || this.atEntry();
    return this.atEntry() && top.key === 'path';
  }

  private endString(): void {
    const top = this.stack.at(-1);
    const raw = this.capture;
    this.capture = null;
    if (top?.kind !== 'object') return;
    if (top.expectKey) {
      top.key = raw === null ? undefined : decode(raw);
      if (this.atEntry() && top.key !== undefined) this.entry?.keys.push(top.key);
    } else if (raw !== null && this.entry && this.atEntry() && top.key === 'path') {
      this.entry.path = decode(raw);
    }
  }
}

function nextSpecial(chunk: string, from: number): number {
  const quote = chunk.indexOf('"', from);
  const slash = chunk.indexOf('\\', from);
  return Math.min(quote === -1 ? chunk.length : quote, slash === -1 ? chunk.length : slash);
}

function decode(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}
