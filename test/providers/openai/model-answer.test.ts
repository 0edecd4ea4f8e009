// Parsing a model's answer and applying its changes, alone: strict search/replace, every kind of
// change, and the malformed answers refused outright.
import { describe, expect, it } from 'vitest';
import { applyChanges, parseAnswer } from '../../../src/providers/openai/model-answer.ts';
import { GenerationError } from '../../../src/modules/generations/provider.ts';

const base = () => [
  { path: 'index.html', content: '<h1>Hi</h1><p>a</p><p>a</p>' },
  { path: 'logo.png', content: Buffer.from([1, 2]) },
];

describe('answers', () => {
  it('parses whole-site and changes answers, normalising paths', () => {
    expect(
      parseAnswer(
        '```json\n{"files": [{"path": "./a//b.html", "content": "x"}], "summary": " Did it "}\n```',
      ),
    ).toEqual({ kind: 'files', files: [{ path: 'a/b.html', content: 'x' }], summary: 'Did it' });
    expect(parseAnswer('{"changes": [{"path": "a.html", "delete": true}]}')).toEqual({
      kind: 'changes',
      changes: [{ path: 'a.html', delete: true }],
      summary: 'Generated the site',
    });
  });

  it.each([
    ['{"changes": []}', /empty "changes" array/],
    [
      '{"changes": [{"path": "a.html", "content": "x", "delete": true}]}',
      /exactly one of "content", "edits" or "delete": true/,
    ],
    ['{"changes": [{"path": "a.html"}]}', /exactly one of/],
    ['{"changes": [{"path": "a.html", "delete": false}]}', /"delete" other than true/],
    [
      '{"changes": [{"path": "a.html", "edits": []}]}',
      /non-empty array of \{"search": string, "replace": string\}/,
    ],
    ['{"changes": [{"path": "a.html", "edits": [{"search": "x"}]}]}', /non-empty array/],
    ['{"changes": [{"path": "a.html", "content": 1}]}', /not a string/],
    [
      '{"changes": [{"path": "a.html", "delete": true}, {"path": "./a.html", "delete": true}]}',
      /'a.html' twice/,
    ],
    ['{"changes": [{"path": "../a.html", "delete": true}]}', /unsafe path/],
    [
      JSON.stringify({
        changes: Array.from({ length: 51 }, (_, i) => ({ path: `p${i}.html`, delete: true })),
      }),
      /51 changes; at most 50/,
    ],
    [
      JSON.stringify({ changes: [{ path: 'big.html', content: 'x'.repeat(1_000_001) }] }),
      /'big.html' of 1000001 bytes/,
    ],
    ['[1, 2]', /no "files" array/],
  ])('refuses %s', (text, message) => {
    let error: unknown;
    try {
      parseAnswer(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(message);
  });

  it('applies edits in order, each to the text the previous one left', () => {
    const { files, problems } = applyChanges(base(), [
      {
        path: 'index.html',
        edits: [
          { search: '<p>a</p><p>a</p>', replace: '<p>b</p><p>a</p>' },
          { search: '<p>a</p>', replace: '<p>$1 c</p>' },
        ],
      },
    ]);
    expect(problems).toEqual([]);
    expect(files[0]).toEqual({ path: 'index.html', content: '<h1>Hi</h1><p>b</p><p>$1 c</p>' });
    expect(files[1]!.content).toEqual(Buffer.from([1, 2]));
  });

  it('counts overlapping occurrences: "aa" is twice in "aaa"', () => {
    const { problems } = applyChanges(
      [{ path: 'a.txt', content: 'aaa' }],
      [{ path: 'a.txt', edits: [{ search: 'aa', replace: 'b' }] }],
    );
    expect(problems).toEqual([
      'a.txt: the search text occurs 2 times (it must occur exactly once; include more of the surrounding text): "aa"',
    ]);
  });

  it('reports every change it cannot apply, and a file with a failed edit keeps none of its edits', () => {
    const { files, problems } = applyChanges(base(), [
      {
        path: 'index.html',
        edits: [
          { search: '<h1>Hi</h1>', replace: '<h1>Hello</h1>' },
          { search: 'x'.repeat(200), replace: '' },
          { search: '', replace: 'y' },
        ],
      },
      { path: 'logo.png', edits: [{ search: 'a', replace: 'b' }] },
      { path: 'logo.png', content: 'text' },
      { path: 'nope.html', edits: [{ search: 'a', replace: 'b' }] },
      { path: 'gone.html', delete: true },
    ]);
    expect(problems).toEqual([
      `index.html: the search text was not found: "${'x'.repeat(120)}…"`,
      'index.html: an edit has an empty "search"',
      'logo.png: it is a binary file and cannot be edited',
      'logo.png: it is a binary file and cannot be written as text',
      'nope.html: cannot edit it, the site has no such file (write it whole with "content")',
      'gone.html: cannot delete it, the site has no such file',
    ]);
    expect(files[0]!.content).toBe('<h1>Hi</h1><p>a</p><p>a</p>');
  });
});
