// The streaming scanner alone: fed an answer in pieces cut anywhere, it reports each entry of
// "files"/"changes" once its object closes, with its path, and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerScanner, type StreamedEntry } from '../../../src/providers/openai/model-answer-stream.ts';
import { split } from '../../helpers/fake-openai.ts';

const feed = (pieces: string[]) => {
  const scanner = new AnswerScanner();
  const seen: { entry: StreamedEntry; after: number }[] = [];
  let fed = 0;
  for (const piece of pieces) {
    fed += piece.length;
    for (const entry of scanner.push(piece)) seen.push({ entry, after: fed });
  }
  return seen;
};

const tricky = JSON.stringify({
  summary: 'first, with a {"files": [{"path": "fake.html"}]} inside a string',
  files: [
    {
      content: 'a "quoted" } ] { [ \\ backslash \\" and \n newline \u2028 and {"path":"no.html"}',
      path: 'index.html',
    },
    { path: 'caf\u00e9 "odd"\\name.html', content: '' },
    {
      path: 'css/site.css',
      content: 'body{}',
      extra: { path: 'nested.html', list: [{ path: 'deeper.html' }] },
    },
  ],
});

describe('answer scanner', () => {
  it('reports each file when its object closes, ignoring look-alikes inside strings and nested objects', () => {
    const seen = feed(split(tricky));
    expect(seen.map((s) => s.entry.path)).toEqual(['index.html', 'café "odd"\\name.html', 'css/site.css']);
    expect(seen.map((s) => s.entry.keys)).toEqual([
      ['content', 'path'],
      ['path', 'content'],
      ['path', 'content', 'extra'],
    ]);
    // Reported as soon as the closing brace arrived, not at the end of the answer.
    const firstClose = tricky.indexOf('"path":"index.html"}') + '"path":"index.html"}'.length;
    expect(seen[0]!.after).toBeGreaterThanOrEqual(firstClose);
    expect(seen[0]!.after).toBeLessThan(firstClose + 8);
    expect(seen[1]!.after).toBeLessThan(seen[2]!.after);
  });

  it('reports changes with their kind and nothing for other top-level arrays', () => {
    const answer = JSON.stringify({
      notes: [{ path: 'not-a-file.html' }],
      changes: [
        { path: 'a.html', edits: [{ search: '}', replace: '{' }] },
        { path: 'b.html', delete: true },
        { path: 'c.html', content: 'x' },
      ],
    });
    const seen = feed([...answer]);
    expect(seen.map((s) => [s.entry.path, s.entry.keys])).toEqual([
      ['a.html', ['path', 'edits']],
      ['b.html', ['path', 'delete']],
      ['c.html', ['path', 'content']],
    ]);
  });

  it('ignores a code fence around the JSON and whitespace between tokens', () => {
    const seen = feed([
      '```json\n{ "files" : [ { "path" : "index.html" , "content" : "x" } ,\n',
      '{"path":"b.html","content":"y"} ] }\n```',
    ]);
    expect(seen.map((s) => s.entry.path)).toEqual(['index.html', 'b.html']);
  });

  it('gives the same entries however the text is cut (property)', () => {
    const file = fc.record({
      path: fc.string({ maxLength: 12 }),
      content: fc.string({ unit: 'binary', maxLength: 40 }),
    });
    fc.assert(
      fc.property(
        fc.array(file, { maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 30 }),
        (files, sizes) => {
          const text = JSON.stringify({ files, summary: 'x' });
          const pieces: string[] = [];
          for (let at = 0, i = 0; at < text.length; i++) {
            const size = sizes[i % sizes.length]!;
            pieces.push(text.slice(at, at + size));
            at += size;
          }
          expect(feed(pieces).map((s) => s.entry.path)).toEqual(files.map((f) => f.path));
        },
      ),
      { numRuns: 150 },
    );
  });
});
