import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';
import { pagingParams } from '../common/paging.ts';

export const GENERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

export const Generation = Type.Object(
  {
    id: Uuid(),
    project_id: Uuid(),
    status: StringEnum(GENERATION_STATUSES, {
      description:
        '`queued` -> `running` -> `succeeded` | `failed`; `cancelled` when stopped before it finished (its files never applied). A retryable failure goes back to `queued` until the retry schedule runs out.',
    }),
    prompt: Type.String(),
    model: Type.String({ description: 'The provider model that serves it; `builtin` needs no network' }),
    summary: Nullable(Type.String({ description: 'What was built or changed, once succeeded' })),
    error: Nullable(
      Type.String({ description: 'Why it failed (or why the last try failed while it is retried)' }),
    ),
    files: Nullable(
      Type.Array(Type.String(), {
        description: 'The paths of the site after the generation, once succeeded',
      }),
    ),
    attempts: Type.Integer({ minimum: 0 }),
    created_at: DateTime(),
    started_at: Nullable(DateTime()),
    finished_at: Nullable(DateTime()),
  },
  { title: 'Generation', additionalProperties: false },
);
export type Generation = Static<typeof Generation>;

export const GenerationEnvelope = Type.Object({ generation: Generation }, { additionalProperties: false });

export const GenerateBody = Body({
  prompt: Type.String({
    minLength: 1,
    maxLength: 50_000,
    description: 'What to build, or for a site that has files, what to change',
  }),
  model: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "One of the organization's models; default: the organization's default (its own model when so set, else AI_DEFAULT_MODEL)",
    }),
  ),
  element: Type.Optional(
    Type.Object(
      {
        file: Type.String({
          minLength: 1,
          maxLength: 500,
          description: 'The page the element is on, e.g. `index.html`',
        }),
        selector: Type.String({
          minLength: 1,
          maxLength: 2_000,
          description: 'A CSS selector that finds it in that page',
        }),
        html: Type.String({
          maxLength: 100_000,
          description: "The element's outer HTML as the page has it now",
        }),
      },
      {
        additionalProperties: false,
        description:
          'Aim the prompt at one element of the site (as the builder does when one is selected); the provider receives it as context',
      },
    ),
  ),
});
export type GenerateBody = Static<typeof GenerateBody>;

export const ProjectIdParams = Type.Object({ projectId: Uuid() });
export const GenerationParams = Type.Object({ projectId: Uuid(), generationId: Uuid() });

export const ListGenerationsQuery = Type.Object(
  {
    ...pagingParams(20),
  },
  { additionalProperties: false },
);

export const GENERATION_EVENT_KINDS = [
  'queued',
  'running',
  'step',
  'retrying',
  'succeeded',
  'failed',
  'cancelled',
] as const;

export const GenerationEvent = Type.Object(
  {
    seq: Type.Integer({ minimum: 1, description: '1, 2, 3... per generation; the SSE event id' }),
    kind: StringEnum(GENERATION_EVENT_KINDS, {
      description: '`succeeded`, `failed` and `cancelled` are the last event',
    }),
    message: Type.String(),
    path: Nullable(Type.String({ description: 'The file a step writes, when it names one' })),
    created_at: DateTime(),
  },
  { title: 'GenerationEvent', additionalProperties: false },
);
export type GenerationEvent = Static<typeof GenerationEvent>;

export const GenerationEventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2_147_483_647,
        description: 'Send the events after this `seq` (as `Last-Event-ID` does)',
      }),
    ),
  },
  { additionalProperties: false },
);
