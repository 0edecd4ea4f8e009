// What a model may answer, and how an answer becomes the site's new files. Two shapes:
//   {"files": [{"path", "content"}, ...], "summary"}   the whole site (files left out are deleted)
//   {"changes": [...], "summary"}                      only what changed; other files stay as they are
// A change writes a file ({"path", "content"}), edits one ({"path", "edits": [{"search", "replace"}]})
// or deletes one ({"path", "delete": true}). A malformed answer (not JSON, wrong shape, unsafe path,
// over the limits) is refused outright; an edit that cannot be applied exactly (its search text
// found zero or several times) is a problem the model is asked to repair, like a failed quality check.
import { normalisePath, PathError } from '../../modules/files/paths.ts';
import { GenerationError, type SiteFile } from '../../modules/generations/provider.ts';

export const ANSWER_LIMITS = { maxFiles: 50, maxFileBytes: 1_000_000, maxTotalBytes: 3_000_000 };

export interface Edit {
  search: string;
  replace: string;
}

export type Change =
  { path: string; content: string } | { path: string; edits: Edit[] } | { path: string; delete: true };

export type Answer =
  | { kind: 'files'; files: SiteFile[]; summary: string }
  | { kind: 'changes'; changes: Change[]; summary: string };

/** The answer's files or changes and its summary, or a GenerationError naming what is wrong with it. */
export function parseAnswer(content: string): Answer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new GenerationError('The model’s answer was not valid JSON');
  }
  const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    files?: unknown;
    changes?: unknown;
    summary?: unknown;
  };
  const rawSummary = body.summary;
  const summary =
    typeof rawSummary === 'string' && rawSummary.trim()
      ? rawSummary.trim().slice(0, 500)
      : 'Generated the site';
  if (Array.isArray(body.changes) && body.files === undefined)
    return { kind: 'changes', changes: parseChanges(body.changes), summary };
  const files = body.files;
  if (!Array.isArray(files) || files.length === 0)
    throw new GenerationError('The model’s answer has no "files" array (nor a "changes" array)');
  if (files.length > ANSWER_LIMITS.maxFiles)
    throw new GenerationError(
      `The model returned ${files.length} files; at most ${ANSWER_LIMITS.maxFiles} are accepted`,
    );
  const out: SiteFile[] = [];
  const seen = new Set<string>();
  for (const file of files as { path?: unknown; content?: unknown }[]) {
    if (typeof file?.path !== 'string' || typeof file.content !== 'string')
      throw new GenerationError('Every file in the model’s answer needs a string "path" and "content"');
    const path = safePath(file.path, seen);
    out.push({ path, content: file.content });
  }
  checkSizes(out.map((f) => [f.path, f.content as string]));
  return { kind: 'files', files: out, summary };
}

function parseChanges(raw: unknown[]): Change[] {
  if (raw.length === 0) throw new GenerationError('The model’s answer has an empty "changes" array');
  if (raw.length > ANSWER_LIMITS.maxFiles)
    throw new GenerationError(
      `The model returned ${raw.length} changes; at most ${ANSWER_LIMITS.maxFiles} are accepted`,
    );
  const seen = new Set<string>();
  const changes: Change[] = [];
  for (const entry of raw as Record<string, unknown>[]) {
    if (typeof entry?.path !== 'string')
      throw new GenerationError('Every change in the model’s answer needs a string "path"');
    const path = safePath(entry.path, seen);
    const kinds = ['content', 'edits', 'delete'].filter((k) => entry[k] !== undefined);
    if (kinds.length !== 1)
      throw new GenerationError(
        `The change to '${path}' must have exactly one of "content", "edits" or "delete": true`,
      );
    if (entry.content !== undefined) {
      if (typeof entry.content !== 'string')
        throw new GenerationError(`The change to '${path}' has a "content" that is not a string`);
      changes.push({ path, content: entry.content });
    } else if (entry.delete !== undefined) {
      if (entry.delete !== true)
        throw new GenerationError(`The change to '${path}' has "delete" other than true`);
      changes.push({ path, delete: true });
    } else {
      const edits = entry.edits;
      const valid =
        Array.isArray(edits) &&
        edits.length > 0 &&
        edits.every(
          (e: { search?: unknown; replace?: unknown }) =>
            typeof e?.search === 'string' && typeof e.replace === 'string',
        );
      if (!valid)
        throw new GenerationError(
          `The change to '${path}' needs "edits" as a non-empty array of {"search": string, "replace": string}`,
        );
      changes.push({ path, edits: (edits as Edit[]).map((e) => ({ search: e.search, replace: e.replace })) });
    }
  }
  checkSizes(changes.flatMap((c) => ('content' in c ? [[c.path, c.content] as [string, string]] : [])));
  return changes;
}

function safePath(raw: string, seen: Set<string>): string {
  let path: string;
  try {
    path = normalisePath(raw);
  } catch (error) {
    if (error instanceof PathError)
      throw new GenerationError(
        `The model returned an unsafe path '${raw.slice(0, 200)}': it ${error.message}`,
      );
    throw error;
  }
  if (seen.has(path)) throw new GenerationError(`The model returned '${path}' twice`);
  seen.add(path);
  return path;
}

function checkSizes(files: [path: string, content: string][]): void {
  let total = 0;
  for (const [path, content] of files) {
    const bytes = Buffer.byteLength(content);
    if (bytes > ANSWER_LIMITS.maxFileBytes)
      throw new GenerationError(
        `The model returned '${path}' of ${bytes} bytes; at most ${ANSWER_LIMITS.maxFileBytes} are accepted`,
      );
    total += bytes;
  }
  if (total > ANSWER_LIMITS.maxTotalBytes)
    throw new GenerationError(
      `The model returned ${total} bytes in all; at most ${ANSWER_LIMITS.maxTotalBytes} are accepted`,
    );
}

/**
 * `base` with the changes applied, in their order. Problems (an edit whose search text is not in
 * the file exactly once, a change to a file that is not there) are returned, never half-applied.
 */
export function applyChanges(base: SiteFile[], changes: Change[]): { files: SiteFile[]; problems: string[] } {
  const site = new Map(base.map((f) => [f.path, f.content]));
  const problems: string[] = [];
  for (const change of changes) {
    const current = site.get(change.path);
    if ('delete' in change) {
      if (current === undefined) problems.push(`${change.path}: cannot delete it, the site has no such file`);
      else site.delete(change.path);
    } else if ('content' in change) {
      if (current !== undefined && typeof current !== 'string')
        problems.push(`${change.path}: it is a binary file and cannot be written as text`);
      else site.set(change.path, change.content);
    } else if (current === undefined) {
      problems.push(
        `${change.path}: cannot edit it, the site has no such file (write it whole with "content")`,
      );
    } else if (typeof current !== 'string') {
      problems.push(`${change.path}: it is a binary file and cannot be edited`);
    } else {
      const edited = applyEdits(change.path, current, change.edits, problems);
      if (edited !== undefined) {
        if (Buffer.byteLength(edited) > ANSWER_LIMITS.maxFileBytes)
          problems.push(`${change.path}: the edits make it larger than ${ANSWER_LIMITS.maxFileBytes} bytes`);
        else site.set(change.path, edited);
      }
    }
  }
  return { files: [...site].map(([path, content]) => ({ path, content })), problems };
}

/** The text with each edit applied in turn, or undefined (and a problem per failed edit). */
function applyEdits(path: string, text: string, edits: Edit[], problems: string[]): string | undefined {
  let out = text;
  let failed = false;
  for (const { search, replace } of edits) {
    const at = search === '' ? -1 : out.indexOf(search);
    const again = at === -1 ? -1 : out.indexOf(search, at + 1);
    if (search === '') problems.push(`${path}: an edit has an empty "search"`);
    else if (at === -1) problems.push(`${path}: the search text was not found: ${snippet(search)}`);
    else if (again !== -1)
      problems.push(
        `${path}: the search text occurs ${occurrences(out, search)} times (it must occur exactly once; include more of the surrounding text): ${snippet(search)}`,
      );
    else {
      // Sliced, not String.replace: a "$&" or "$1" in the new text is literal text.
      out = out.slice(0, at) + replace + out.slice(at + search.length);
      continue;
    }
    failed = true;
  }
  return failed ? undefined : out;
}

function occurrences(text: string, search: string): number {
  let n = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) n++;
  return n;
}

function snippet(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}

/** Refuses a site without a real index.html: nothing a person could open. */
export function checkIndex(files: SiteFile[]): void {
  const index = files.find((f) => f.path === 'index.html');
  if (!index) throw new GenerationError('The model’s answer has no index.html');
  const html = String(index.content).toLowerCase();
  if (!/<html[\s>]/.test(html) || !html.includes('</html>') || !/<body[\s>]/.test(html)) {
    throw new GenerationError('The model’s index.html is not a complete HTML document');
  }
}
