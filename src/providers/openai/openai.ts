// An OpenAI-compatible chat-completions provider (the official `openai` client; any server that
// speaks /v1/chat/completions works through AI_BASE_URL). The answer is streamed: each file is
// reported as written the moment the model closes it in its JSON. A first generation asks for the
// whole site; a follow-up asks only for what changes (whole files, exact search/replace edits,
// deletions), so a large site can be edited within the model's output limit. Nothing is returned
// that it cannot trust: a cut-off or malformed answer, unsafe paths or oversized files fail the
// generation, and the site must pass the quality gate (quality.ts) — the model is asked once to
// repair what fails it. The job layer retries what is worth retrying (timeouts, 429, 5xx, a
// broken stream).
import OpenAI from 'openai';
import { applyChanges, checkIndex, parseAnswer } from './model-answer.ts';
import { AnswerScanner, type StreamedEntry } from './model-answer-stream.ts';
import {
  GenerationError,
  type GenerateRequest,
  type GenerateResult,
  type ProgressStep,
  type Provider,
  type SiteFile,
} from '../../modules/generations/provider.ts';
import {
  checkSiteProblems,
  formatProblem,
  problemKey,
  type Problem,
  type ValidationCache,
} from './quality.ts';

export { ANSWER_LIMITS, parseAnswer } from './model-answer.ts';

export interface OpenAiSettings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  models: string[];
  timeoutMs: number;
  /** The fetch the client calls through (an organization's endpoint: one that refuses private addresses). */
  fetch?: typeof fetch;
}

/** How long the connection check of Settings → AI model waits for its one short answer. */
const CHECK_TIMEOUT_MS = 30_000;

/** How much of the current site's text a follow-up sends to the model. */
const CONTEXT_BUDGET_BYTES = 200_000;
/** At most this many problems are sent to the model to repair, and named in a failure. */
const REPAIR_LIST = 40;
const FAILURE_LIST = 8;

const RULES = `Rules: paths are relative (index.html, styles.css, about/index.html), no "..", no leading "/". index.html is always a complete HTML document. No external assets, fonts, scripts or images from other hosts; use inline SVG or CSS. Every form posts to /_forms/<name> with method POST and includes a hidden honeypot input named _gotcha.
Quality: every page is valid HTML5 with <!doctype html>, a non-empty <title> and exactly one <h1>; images have alt text, form fields have labels; every internal link and asset (href, src, url()) points to a file of the site (a link to about/ means about/index.html).`;

const SYSTEM_NEW = `You are a senior web designer and front-end developer. You build complete, responsive, accessible static websites with HTML and CSS (and small amounts of vanilla JavaScript only if needed).
Answer with ONE JSON object and nothing else: {"files": [{"path": "index.html", "content": "..."}, ...], "summary": "one sentence saying what you built"}.
${RULES}`;

const CHANGES_FORMAT = `{"changes": [{"path": "about.html", "content": "the whole new file"} | {"path": "index.html", "edits": [{"search": "exact text copied from the file", "replace": "its new text"}]} | {"path": "old.html", "delete": true}], "summary": "one sentence saying what you changed"}`;

const SYSTEM_EDIT = `You are a senior web designer and front-end developer. You change an existing static website (HTML, CSS, a little vanilla JavaScript) as asked, keeping everything else as it is.
Answer with ONE JSON object and nothing else, listing only what changes: ${CHANGES_FORMAT}
Files you do not mention stay exactly as they are. Use "content" for a new file or one you rewrite entirely, "edits" for a change to part of a file: each "search" must be copied exactly from the file's current text (spaces and line breaks included) and occur in it exactly once (include enough surrounding text to make it unique); the edits of a file apply in order. Use "delete": true to remove a file. Only if you rebuild the whole site, answer {"files": [...], "summary": "..."} with every text file instead (files left out are deleted).
${RULES}`;

type TextFile = SiteFile & { content: string };

/** What one answer made of the site: its files and what is wrong with them (nothing: it passes). */
interface Outcome {
  files: SiteFile[];
  summary: string;
  problems: string[];
  /** False when the answer could not even be applied (an edit's search text was not found once). */
  applied: boolean;
}

export class OpenAiProvider implements Provider {
  readonly models: readonly string[];
  private readonly client: OpenAI;

  constructor(private readonly settings: OpenAiSettings) {
    this.models = settings.models;
    this.client = new OpenAI({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl,
      timeout: settings.timeoutMs,
      maxRetries: 0,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }

  /** One short call proving that the endpoint, the key and the model work together; throws a GenerationError saying what failed. */
  async check(model: string): Promise<void> {
    try {
      const answer = await this.client.chat.completions.create(
        { model, messages: [{ role: 'user', content: 'Answer with the single word OK.' }] },
        { timeout: Math.min(CHECK_TIMEOUT_MS, this.settings.timeoutMs) },
      );
      if (!answer.choices?.length)
        throw new GenerationError(`The endpoint answered, but not as an OpenAI-compatible chat completion`);
    } catch (error) {
      if (error instanceof GenerationError) throw error;
      throw checkFailure(error, model);
    }
  }

  async generate({
    prompt,
    element,
    model,
    files,
    projectName,
    signal,
    onProgress,
  }: GenerateRequest): Promise<GenerateResult> {
    const report = onProgress ?? (() => {});
    const editing = files.length > 0;
    const context = currentFiles(files);
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: editing ? SYSTEM_EDIT : SYSTEM_NEW },
    ];
    if (editing) messages.push({ role: 'user', content: context.message });
    // The site's name when the request gives none (the builtin model does the same).
    if (!editing && projectName)
      messages.push({
        role: 'user',
        content: `The project is called ${JSON.stringify(projectName)}: use that as the site's name unless the next request names the business.`,
      });
    if (element) {
      messages.push({
        role: 'user',
        content: `The person selected one element of ${element.file} (CSS selector: ${element.selector}). Apply the next request to that element only and keep the rest of the site as it is. The element now:\n${element.html}`,
      });
    }
    messages.push({ role: 'user', content: prompt });

    // Problems the site already had are not the model's to answer for: only new ones fail it.
    // Found once an answer is there to compare (the findings of unchanged pages are then reused).
    const cache: ValidationCache = new Map();
    let problemsBefore: Map<string, number> | undefined;
    const before = () => (problemsBefore ??= countKeys(editing ? checkSiteProblems(files, cache) : []));
    const evaluate = (answer: string, base: SiteFile[]) =>
      this.evaluate(answer, base, { unseen: context.unseen, before, cache, report });

    report({ message: `Asking ${model}` });
    const first = await this.complete(model, messages, signal, report);
    const outcome = evaluate(first, files);
    if (outcome.problems.length === 0) return { files: outcome.files, summary: outcome.summary };

    report({
      message: `Asking ${model} to repair: ${outcome.problems.length} problem${outcome.problems.length === 1 ? '' : 's'}`,
    });
    messages.push({ role: 'assistant', content: first }, { role: 'user', content: repairRequest(outcome) });
    const second = await this.complete(model, messages, signal, report);
    const repaired = evaluate(second, outcome.applied ? outcome.files : files);
    if (repaired.problems.length === 0) return { files: repaired.files, summary: repaired.summary };
    const shown = repaired.problems
      .slice(0, FAILURE_LIST)
      .map((p) => (p.length > 300 ? `${p.slice(0, 300)}…` : p));
    const more = repaired.problems.length - shown.length;
    const what = repaired.applied
      ? 'The generated site still fails the quality check'
      : 'The model’s answer still cannot be applied';
    throw new GenerationError(
      `${what} after a repair (${repaired.problems.length} problem${repaired.problems.length === 1 ? '' : 's'}): ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    );
  }

  /** The answer applied to `base`, with the problems of the result. */
  private evaluate(
    answer: string,
    base: SiteFile[],
    {
      unseen,
      before,
      cache,
      report,
    }: {
      unseen: SiteFile[];
      before: () => Map<string, number>;
      cache: ValidationCache;
      report: (step: ProgressStep) => void;
    },
  ): Outcome {
    const parsed = parseAnswer(answer);
    let files: SiteFile[];
    if (parsed.kind === 'files') {
      // Files the model could not see (binary ones, text beyond the context budget) are kept unless
      // it wrote a new version: it cannot mean to delete what it was never shown.
      const kept = unseen.filter((u) => !parsed.files.some((f) => f.path === u.path));
      files = [...kept, ...parsed.files];
    } else {
      const applied = applyChanges(base, parsed.changes);
      if (applied.problems.length > 0)
        return { files: base, summary: parsed.summary, problems: applied.problems, applied: false };
      files = applied.files;
    }
    checkIndex(files);
    report({ message: 'Checking the site' });
    const problems = newProblems(checkSiteProblems(files, cache), before()).map(formatProblem);
    return { files, summary: parsed.summary, problems, applied: true };
  }

  /** Streams one chat completion and returns its text once the model has finished it. */
  private async complete(
    model: string,
    messages: OpenAI.Chat.ChatCompletionMessageParam[],
    signal: AbortSignal,
    report: (step: ProgressStep) => void,
  ): Promise<string> {
    const scanner = new AnswerScanner();
    const pieces: string[] = [];
    let length = 0;
    let refusal = '';
    let finish: string | null = null;
    let started = false;
    // The client's timeout covers the wait for the response's headers; a stream that goes quiet
    // for as long afterwards is given up the same way.
    const idle = new AbortController();
    let quiet: NodeJS.Timeout | undefined;
    const heard = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => idle.abort(), this.settings.timeoutMs);
    };
    const both = AbortSignal.any([signal, idle.signal]);
    try {
      const stream = await this.client.chat.completions.create(
        { model, messages, response_format: { type: 'json_object' }, stream: true },
        { signal: both },
      );
      started = true;
      heard();
      for await (const chunk of stream) {
        heard();
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta as { content?: string | null; refusal?: string | null } | undefined;
        if (delta?.refusal) refusal += delta.refusal;
        if (delta?.content) {
          pieces.push(delta.content);
          length += delta.content.length;
          for (const entry of scanner.push(delta.content)) reportEntry(entry, report);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    } catch (error) {
      if (started && !signal.aborted) {
        const why = idle.signal.aborted
          ? `nothing arrived for AI_TIMEOUT (${this.settings.timeoutMs / 1000} s)`
          : describeFailure(error, this.settings.timeoutMs, signal).message;
        throw new GenerationError(`The model’s answer broke off after ${length} characters: ${why}`, true);
      }
      throw describeFailure(error, this.settings.timeoutMs, signal);
    } finally {
      clearTimeout(quiet);
    }
    // The client ends the stream quietly when it is aborted: that is no answer either.
    if (signal.aborted) throw describeFailure(undefined, this.settings.timeoutMs, signal);
    if (idle.signal.aborted)
      throw new GenerationError(
        `The model’s answer broke off after ${length} characters: nothing arrived for AI_TIMEOUT (${this.settings.timeoutMs / 1000} s)`,
        true,
      );
    if (refusal) throw new GenerationError(`The model refused: ${refusal.slice(0, 300)}`);
    if (finish === 'length')
      throw new GenerationError(
        'The model’s answer was cut off (finish_reason "length"): the site was too large for the model’s output limit',
      );
    if (finish === null)
      throw new GenerationError(
        `The model’s answer broke off after ${length} characters: the stream ended before the model finished`,
        true,
      );
    if (finish === 'content_filter')
      throw new GenerationError('The model’s answer was stopped by its provider’s content filter');
    return pieces.join('');
  }
}

function reportEntry(entry: StreamedEntry, report: (step: ProgressStep) => void): void {
  if (entry.path === undefined) return;
  const verb = entry.keys.includes('delete')
    ? 'Deleting'
    : entry.keys.includes('edits')
      ? 'Editing'
      : 'Writing';
  report({ message: `${verb} ${entry.path}`, path: entry.path });
}

/**
 * What a follow-up tells the model about the site: every file with its size, and the text of the
 * text files as far as the budget goes. Files it is not shown are returned as `unseen`.
 */
function currentFiles(files: SiteFile[]): { message: string; unseen: SiteFile[] } {
  let budget = CONTEXT_BUDGET_BYTES;
  const shown: { path: string; content: string }[] = [];
  const unshown: SiteFile[] = [];
  const binary = files.filter((f) => typeof f.content !== 'string');
  for (const f of files.filter((f): f is TextFile => typeof f.content === 'string')) {
    const bytes = Buffer.byteLength(f.content);
    if (bytes > budget) unshown.push(f);
    else {
      budget -= bytes;
      shown.push({ path: f.path, content: f.content });
    }
  }
  const listing = files
    .map(
      (f) =>
        `${f.path} (${Buffer.byteLength(f.content)} bytes${typeof f.content === 'string' ? '' : ', binary'})`,
    )
    .join('\n');
  const notes = [
    binary.length
      ? `Binary files you may reference but not change: ${binary.map((b) => b.path).join(', ')}`
      : '',
    unshown.length
      ? `Text files not shown (too large for this message); they are kept as they are unless you return a new version: ${unshown.map((u) => u.path).join(', ')}`
      : '',
  ].filter(Boolean);
  const message = `The site has ${files.length} files:\n${listing}\n\nThe current text files of the site:\n${JSON.stringify({ files: shown })}${notes.map((n) => `\n${n}`).join('')}`;
  return { message, unseen: [...binary, ...unshown] };
}

function repairRequest(outcome: Outcome): string {
  const list = outcome.problems.slice(0, REPAIR_LIST).map((p) => `- ${p}`);
  if (outcome.problems.length > REPAIR_LIST) list.push(`- and ${outcome.problems.length - REPAIR_LIST} more`);
  const problems = list.join('\n');
  if (!outcome.applied) {
    return `Your answer could not be applied:\n${problems}\nAnswer again in full, in the same JSON format; your new answer replaces the previous one and applies to the files as I first gave them. Every "search" must be copied exactly from the current file and occur in it exactly once.`;
  }
  return `The site your answer makes fails these quality checks:\n${problems}\nFix them all and keep everything else as it is. Answer with ONE JSON object, either only the changes to the site as your previous answer made it: ${CHANGES_FORMAT}\nor the complete site: {"files": [...], "summary": "..."}.`;
}

function countKeys(problems: Problem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(problemKey(p), (counts.get(problemKey(p)) ?? 0) + 1);
  return counts;
}

/** The problems of `after` beyond those the site had before (each counted as often as it was there). */
function newProblems(after: Problem[], before: Map<string, number>): Problem[] {
  const left = new Map(before);
  return after.filter((p) => {
    const n = left.get(problemKey(p)) ?? 0;
    if (n === 0) return true;
    left.set(problemKey(p), n - 1);
    return false;
  });
}

function checkFailure(error: unknown, model: string): GenerationError {
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new GenerationError(`The endpoint did not answer within ${CHECK_TIMEOUT_MS / 1000} seconds`);
  if (error instanceof OpenAI.APIConnectionError) {
    // The client says only "Connection error."; the reason (refused, unknown host, a refused address) is in its cause.
    let cause: unknown = error.cause;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    return new GenerationError(
      `Could not reach the endpoint${cause instanceof Error ? ` (${cause.message.slice(0, 200)})` : ''}`,
    );
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    const why =
      status === 401 || status === 403
        ? 'the key was refused'
        : status === 404
          ? `no model '${model}' there (or the URL is not an OpenAI-compatible /v1 endpoint)`
          : status === 429
            ? 'too many requests or no credit left'
            : 'it failed';
    return new GenerationError(
      `The endpoint answered ${status}: ${why} (${String(error.message).slice(0, 200)})`,
    );
  }
  return new GenerationError(`The check failed: ${error instanceof Error ? error.message : String(error)}`);
}

function describeFailure(error: unknown, timeoutMs: number, signal: AbortSignal): GenerationError {
  if (signal.aborted) {
    return signal.reason instanceof GenerationError
      ? signal.reason
      : new GenerationError('The generation was cancelled', true);
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new GenerationError(`The model did not answer within AI_TIMEOUT (${timeoutMs / 1000} s)`, true);
  if (error instanceof OpenAI.APIConnectionError)
    return new GenerationError(`Could not reach the model: ${error.message}`, true);
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    const retryable = status === 429 || status >= 500;
    return new GenerationError(
      `The model provider answered ${status}: ${String(error.message).slice(0, 300)}`,
      retryable,
    );
  }
  return new GenerationError(
    `The model call failed: ${error instanceof Error ? error.message : String(error)}`,
    true,
  );
}
