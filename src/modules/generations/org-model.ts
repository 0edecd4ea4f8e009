// The AI model an organization connects itself (Settings → AI model, or the CLI): OpenAI, or any
// OpenAI-compatible endpoint such as a local Ollama. It is offered beside the installation's own
// models (the builtin templates, and AI_MODELS when the operator set AI_API_KEY) to that
// organization only. Nothing is saved before one short call proves that the endpoint, the key
// and the model answer; the key is sealed with the installation's secrets key and never shown
// again (only its last four characters).
import type { Database } from '../../db/index.ts';
import { bool } from '../../db/executor.ts';
import { toIso } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { invalid } from '../common/errors.ts';
import { checkEndpointUrl } from './endpoint.ts';
import { deleteOrgModel, findOrgModel, saveOrgModel, type OrgModelRow } from './org-model-repo.ts';
import { GenerationError, type ConnectEndpoint, type Provider, type ProviderRegistry } from './provider.ts';
import { agencyOrg, managerOrg } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';

export const OPENAI_URL = 'https://api.openai.com/v1';
const MAX_MODEL = 100; // as long as a generation's `model` field may be
const MAX_KEY = 4_096;

export interface OrgModelSettings {
  /** Endpoints on loopback and private networks (a local Ollama): AI_ALLOW_PRIVATE_ENDPOINTS. */
  allowPrivateEndpoints: boolean;
  /** Seals keys; undefined: keys cannot be kept (`secretsMissing` says why and what to do). */
  secrets: SecretBox | undefined;
  secretsMissing: string;
}

/** The connected model as the settings page shows it: never the key. */
export interface OrgModel {
  /** null: OpenAI's own API. */
  base_url: string | null;
  model: string;
  /** The key's last four characters; null: no key. */
  key_hint: string | null;
  use_by_default: boolean;
  checked_at: string;
  /** False when the saved key cannot be opened with this installation's secrets key (it changed). */
  usable: boolean;
}

export interface ConnectModelInput {
  base_url: string | null;
  /** null or '': keep the saved key when the endpoint is the same (changing only the model). */
  api_key: string | null;
  model: string;
  use_by_default: boolean;
}

const context = (orgId: string) => `ai_models:${orgId}`;

export class OrgModelService {
  constructor(
    private readonly database: Database,
    private readonly installation: ProviderRegistry,
    private readonly connectEndpoint: ConnectEndpoint,
    private readonly settings: OrgModelSettings,
  ) {}

  get canKeepKeys(): boolean {
    return this.settings.secrets !== undefined;
  }

  get secretsMissing(): string {
    return this.settings.secretsMissing;
  }

  get allowsPrivateEndpoints(): boolean {
    return this.settings.allowPrivateEndpoints;
  }

  /** The connected model, as any member of the agency sees it (changing it is for managers). */
  async get(principal: Principal): Promise<OrgModel | undefined> {
    const orgId = agencyOrg(principal, 'read', "The organization's AI model is the agency's");
    const row = await findOrgModel(this.database.db, orgId);
    if (!row) return undefined;
    return {
      base_url: row.base_url,
      model: row.model,
      key_hint: row.api_key_hint,
      use_by_default: bool(row.use_by_default),
      checked_at: toIso(row.checked_at),
      usable: this.keyOf(row) !== undefined,
    };
  }

  /** Checks the endpoint with one call, then keeps it; throws an InvalidInputError saying what failed. */
  async connect(principal: Principal, input: ConnectModelInput, now = new Date()): Promise<OrgModel> {
    const orgId = managerOrg(principal);
    const model = input.model.trim();
    if (!model)
      throw invalid(
        `field 'model' is required: the name of the model to call (for example gpt-4o-mini, or llama3.2 on Ollama)`,
      );
    if (model.length > MAX_MODEL || /[\p{Cc}]/u.test(model))
      throw invalid(`field 'model' must be a model name of at most ${MAX_MODEL} characters`);
    if (model === 'builtin') throw invalid(`field 'model': 'builtin' is the templates model, always there`);
    const rawUrl = input.base_url?.trim() || null;
    const baseUrl =
      rawUrl && rawUrl.replace(/\/+$/, '') !== OPENAI_URL
        ? checkEndpointUrl(rawUrl, this.settings.allowPrivateEndpoints)
        : null;
    let key = input.api_key?.trim() || null;
    if (key && (key.length > MAX_KEY || /[\s\p{Cc}]/u.test(key)))
      throw invalid(`field 'api_key' must be one key without spaces, at most ${MAX_KEY} characters`);
    const saved = await findOrgModel(this.database.db, orgId);
    // Changing only the model or the default keeps the key already given for the same endpoint.
    if (!key && saved && saved.base_url === baseUrl && saved.api_key_sealed) {
      key = this.keyOf(saved) ?? null;
      if (!key)
        throw invalid(
          `field 'api_key': the saved key cannot be read any more (the secrets key changed); give the key again`,
        );
    }
    if (!key && baseUrl === null)
      throw invalid(`field 'api_key' is required for OpenAI (create one at platform.openai.com)`);
    if (key && !this.settings.secrets)
      throw invalid(`field 'api_key' cannot be kept: ${this.settings.secretsMissing}`);
    try {
      await this.connectEndpoint({ baseUrl, apiKey: key }).check(model);
    } catch (error) {
      if (error instanceof GenerationError)
        throw invalid(`the model did not answer the test call: ${error.message}`);
      throw error;
    }
    await saveOrgModel(this.database.db, {
      org_id: orgId,
      base_url: baseUrl,
      model,
      api_key_sealed: key ? this.settings.secrets!.seal(key, context(orgId)) : null,
      api_key_hint: key ? key.slice(-4) : null,
      use_by_default: input.use_by_default,
      at: now.toISOString(),
    });
    return (await this.get(principal))!;
  }

  async disconnect(principal: Principal): Promise<boolean> {
    const orgId = managerOrg(principal);
    return deleteOrgModel(this.database.db, orgId);
  }

  /** The models this organization may name: the installation's, and its own. */
  async choiceFor(orgId: string | null): Promise<ProviderRegistry> {
    const row = orgId === null ? undefined : await findOrgModel(this.database.db, orgId);
    const key = row ? this.keyOf(row) : undefined;
    if (!row || key === undefined) return this.installation;
    const own = this.connectEndpoint({ baseUrl: row.base_url, apiKey: key });
    const defaultModel = bool(row.use_by_default) ? row.model : this.installation.defaultModel;
    const names = [...new Set([defaultModel, ...this.installation.models, row.model])];
    return {
      models: names,
      defaultModel,
      // The organization's own endpoint answers for its model, even where the operator's has the same name.
      providerFor: (model: string): Provider | undefined =>
        model === row.model ? own : this.installation.providerFor(model),
    };
  }

  /** The key of a row: null for none, undefined when it cannot be opened. */
  private keyOf(row: OrgModelRow): string | null | undefined {
    if (row.api_key_sealed === null) return null;
    return this.settings.secrets?.open(row.api_key_sealed, context(row.org_id));
  }
}
