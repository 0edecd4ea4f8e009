// An OpenAI-compatible chat-completions provider (the official `openai` client; any server that
// speaks /v1/chat/completions works through AI_BASE_URL). It asks for the site's files as one JSON
// object and refuses anything it cannot trust: a truncated or malformed answer, unsafe paths,
// oversized files, or a site without a real index.html fails the generation with a clear error
// rather than writing garbage. The job layer retries what is worth retrying (timeouts, 429, 5xx).
import OpenAI from 'openai';
import { normalisePath, PathError } from '../files/paths.ts';
import { GenerationError, type GenerateRequest, type GenerateResult, type Provider, type SiteFile } from './provider.ts';

export interface OpenAiSettings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  models: string[];
  timeoutMs: number;
}

export const ANSWER_LIMITS = { maxFiles: 50, maxFileBytes: 1_000_000, maxTotalBytes: 3_000_000 };
/** How much of the current site a follow-up sends to the model. */
const CONTEXT_BUDGET_BYTES = 200_000;

const SYSTEM = `You are a senior web designer and front-end developer. You build complete, responsive, accessible static websites with HTML and CSS (and small amounts of vanilla JavaScript only if needed).
Answer with ONE JSON object and nothing else: {"files": [{"path": "index.html", "content": "..."}, ...], "summary": "one sentence saying what you built or changed"}.
Rules: paths are relative (index.html, styles.css, about/index.html), no "..", no leading "/". Always include index.html as a complete HTML document. No external assets, fonts, scripts or images from other hosts; use inline SVG or CSS. Every form posts to /_forms/<name> with method POST and includes a hidden honeypot input named _gotcha.
When you are given the current files, return the complete new set of text files of the site (files you leave out are deleted), changing only what the request asks.`;

export class OpenAiProvider implements Provider {
  readonly models: readonly string[];
  private readonly client: OpenAI;

  constructor(private readonly settings: OpenAiSettings) {
    this.models = settings.models;
    this.client = new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseUrl, timeout: settings.timeoutMs, maxRetries: 0 });
  }

  async generate({ prompt, element, model, files, signal, onProgress }: GenerateRequest): Promise<GenerateResult> {
    const text = files.filter((f): f is SiteFile & { content: string } => typeof f.content === 'string');
    const binary = files.filter((f) => typeof f.content !== 'string');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM }];
    const context = currentFiles(text, binary);
    if (text.length > 0) messages.push({ role: 'user', content: `The current files of the site:\n${context.message}` });
    if (element) {
      messages.push({
        role: 'user',
        content: `The person selected one element of ${element.file} (CSS selector: ${element.selector}). Apply the next request to that element only and keep the rest of the site as it is. The element now:\n${element.html}`,
      });
    }
    messages.push({ role: 'user', content: prompt });

    let completion: OpenAI.Chat.ChatCompletion;
    onProgress?.({ message: `Asking ${model}` });
    try {
      completion = await this.client.chat.completions.create({ model, messages, response_format: { type: 'json_object' } }, { signal });
    } catch (error) {
      throw describeFailure(error, this.settings.timeoutMs, signal);
    }
    const choice = completion.choices?.[0];
    if (!choice) throw new GenerationError('The model answered without any choice', true);
    if (choice.message?.refusal) throw new GenerationError(`The model refused: ${choice.message.refusal.slice(0, 300)}`);
    if (choice.finish_reason === 'length') throw new GenerationError('The model’s answer was cut off (finish_reason "length"): the site was too large for the model’s output limit');
    const answer = parseAnswer(choice.message?.content ?? '');
    // Files the model could not see (binary ones, text beyond the context budget) are kept unless
    // it wrote a new version: it cannot mean to delete what it was never shown.
    const unseen = [...binary, ...context.unshown];
    const kept = unseen.filter((u) => !answer.files.some((f) => f.path === u.path));
    for (const file of answer.files) onProgress?.({ message: `Writing ${file.path}`, path: file.path });
    return { files: [...kept, ...answer.files], summary: answer.summary };
  }
}

function currentFiles(text: (SiteFile & { content: string })[], binary: SiteFile[]): { message: string; unshown: SiteFile[] } {
  let budget = CONTEXT_BUDGET_BYTES;
  const shown: { path: string; content: string }[] = [];
  const unshown: SiteFile[] = [];
  for (const f of text) {
    if (f.content.length > budget) unshown.push(f);
    else {
      budget -= f.content.length;
      shown.push({ path: f.path, content: f.content });
    }
  }
  const notes = [
    binary.length ? `Binary files you may reference but not change: ${binary.map((b) => b.path).join(', ')}` : '',
    unshown.length ? `Text files not shown (too large for this message); they are kept as they are unless you return a new version: ${unshown.map((u) => u.path).join(', ')}` : '',
  ].filter(Boolean);
  return { message: JSON.stringify({ files: shown }) + notes.map((n) => `\n${n}`).join(''), unshown };
}

/** The answer's files and summary, or a GenerationError naming what is wrong with it. */
export function parseAnswer(content: string): { files: SiteFile[]; summary: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new GenerationError('The model’s answer was not valid JSON (it may have been truncated)');
  }
  const files = (parsed as { files?: unknown })?.files;
  if (!Array.isArray(files) || files.length === 0) throw new GenerationError('The model’s answer has no "files" array');
  if (files.length > ANSWER_LIMITS.maxFiles) throw new GenerationError(`The model returned ${files.length} files; at most ${ANSWER_LIMITS.maxFiles} are accepted`);
  const out: SiteFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const file of files as { path?: unknown; content?: unknown }[]) {
    if (typeof file?.path !== 'string' || typeof file.content !== 'string') throw new GenerationError('Every file in the model’s answer needs a string "path" and "content"');
    let path: string;
    try {
      path = normalisePath(file.path);
    } catch (error) {
      if (error instanceof PathError) throw new GenerationError(`The model returned an unsafe path '${file.path.slice(0, 200)}': it ${error.message}`);
      throw error;
    }
    if (seen.has(path)) throw new GenerationError(`The model returned '${path}' twice`);
    seen.add(path);
    const bytes = Buffer.byteLength(file.content);
    if (bytes > ANSWER_LIMITS.maxFileBytes) throw new GenerationError(`The model returned '${path}' of ${bytes} bytes; at most ${ANSWER_LIMITS.maxFileBytes} are accepted`);
    total += bytes;
    out.push({ path, content: file.content });
  }
  if (total > ANSWER_LIMITS.maxTotalBytes) throw new GenerationError(`The model returned ${total} bytes in all; at most ${ANSWER_LIMITS.maxTotalBytes} are accepted`);
  const index = out.find((f) => f.path === 'index.html');
  if (!index) throw new GenerationError('The model’s answer has no index.html');
  const html = (index.content as string).toLowerCase();
  if (!/<html[\s>]/.test(html) || !html.includes('</html>') || !/<body[\s>]/.test(html)) {
    throw new GenerationError('The model’s index.html is not a complete HTML document');
  }
  const summary = (parsed as { summary?: unknown }).summary;
  return { files: out, summary: typeof summary === 'string' && summary.trim() ? summary.trim().slice(0, 500) : 'Generated the site' };
}

function describeFailure(error: unknown, timeoutMs: number, signal: AbortSignal): GenerationError {
  if (signal.aborted) {
    return signal.reason instanceof GenerationError ? signal.reason : new GenerationError('The generation was cancelled', true);
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new GenerationError(`The model did not answer within AI_TIMEOUT (${timeoutMs / 1000} s)`, true);
  if (error instanceof OpenAI.APIConnectionError) return new GenerationError(`Could not reach the model: ${error.message}`, true);
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    const retryable = status === 429 || status >= 500;
    return new GenerationError(`The model provider answered ${status}: ${String(error.message).slice(0, 300)}`, retryable);
  }
  return new GenerationError(`The model call failed: ${error instanceof Error ? error.message : String(error)}`, true);
}
