// The one interface every AI provider implements. A provider turns a prompt (and, for a follow-up,
// the site's current files) into the complete new set of files of the site. It never touches the
// database: the generation job validates what comes back and writes it in one transaction.

import type { SiteFile } from '../files/rules.ts';

export type { SiteFile } from '../files/rules.ts';

export interface GenerateRequest {
  prompt: string;
  /** The model id asked for (already checked against the configured list). */
  model: string;
  /** The project's current files; empty for a first generation. Non-empty means "edit this site". */
  files: SiteFile[];
  /** The project's name: what a site is called when the prompt does not name it. */
  projectName?: string;
  /** Aborted when the job's time runs out, it is cancelled, or the process shuts down. */
  signal: AbortSignal;
  /** The element the person selected in the preview: the change applies to it alone. */
  element?: ElementContext;
  /** Reports a step as it happens (shown live to the person waiting); optional for providers. */
  onProgress?: (step: ProgressStep) => void;
}

/** An element selected in the builder's preview, sent with the prompt as its context. */
export interface ElementContext {
  /** The page it is on, e.g. `index.html`. */
  file: string;
  /** A CSS selector that finds it in that page, e.g. `body > main > section:nth-of-type(2) > h2`. */
  selector: string;
  /** Its outer HTML as the page has it now. */
  html: string;
}

export interface ProgressStep {
  message: string;
  /** The file the step writes, when it names one. */
  path?: string;
}

export interface GenerateResult {
  /** The complete file set of the site after this generation (files not listed are removed). */
  files: SiteFile[];
  /** One line a person can read: what was built or changed. */
  summary: string;
}

export interface Provider {
  /** Model ids this provider serves, e.g. `builtin`, `gpt-4o-mini`. */
  readonly models: readonly string[];
  generate(request: GenerateRequest): Promise<GenerateResult>;
}

/**
 * A failure the user should read (bad answer from the model, timeout, refused request). The
 * generation is marked failed with this message; `retryable` failures are tried again first.
 */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'GenerationError';
  }
}

/** Where the models an organization may name come from (org-model.ts: the installation's and its own). */
export interface ModelSource {
  /** null: the installation's models only (an organization not known yet). */
  choiceFor(orgId: string | null): Promise<ProviderRegistry>;
}

/** The configured providers, by model id. */
export interface ProviderRegistry {
  /** Model ids a request may name, the default first. */
  readonly models: readonly string[];
  readonly defaultModel: string;
  /** The provider serving `model`, or undefined when no configured provider serves it. */
  providerFor(model: string): Provider | undefined;
}

/** An organization's own OpenAI-compatible endpoint (Settings → AI model). */
export interface EndpointProvider extends Provider {
  /** One short test call; a GenerationError says in a sentence why it failed. */
  check(model: string): Promise<void>;
}

/**
 * Connects to an OpenAI-compatible endpoint (null: OpenAI's own API) with a key (null: none);
 * the adapter applies the installation's timeout and its rule on private addresses.
 */
export type ConnectEndpoint = (endpoint: {
  baseUrl: string | null;
  apiKey: string | null;
}) => EndpointProvider;
