// The AI providers configured by the environment: `builtin` always, and an OpenAI-compatible
// provider for the models in AI_MODELS when AI_API_KEY is set.
import type { AiSettings } from '../modules/settings.ts';
import { BuiltinProvider } from './builtin/index.ts';
import { OpenAiProvider } from './openai/openai.ts';
import type { Provider, ProviderRegistry } from '../modules/generations/provider.ts';

export function createProviders(config: { ai: AiSettings }): ProviderRegistry {
  const byModel = new Map<string, Provider>();
  const builtin = new BuiltinProvider();
  byModel.set('builtin', builtin);
  if (config.ai.apiKey) {
    const openai = new OpenAiProvider(config.ai);
    for (const model of openai.models) if (!byModel.has(model)) byModel.set(model, openai);
  }
  const defaultModel = byModel.has(config.ai.defaultModel) ? config.ai.defaultModel : 'builtin';
  return {
    models: [defaultModel, ...[...byModel.keys()].filter((m) => m !== defaultModel)],
    defaultModel,
    providerFor: (model) => byModel.get(model),
  };
}
