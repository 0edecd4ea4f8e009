// The embed session API's records and inputs (POST /api/embed/session). The same schemas validate
// the request, document it in the OpenAPI document and type the service.
import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';
import { EMBED_ABILITIES } from '../access/principal.ts';

export const EMBED_MODES = ['full', 'hybrid', 'headless'] as const;
export type EmbedMode = (typeof EMBED_MODES)[number];

const Origin = Type.String({
  maxLength: 300,
  description: 'An exact origin, `https://host[:port]` (`http://` only for localhost and loopback)',
});

export const CreateEmbedSessionBody = Body({
  user: Body(
    {
      external_id: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: "The user's id in the host product" }),
      ),
      email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
      name: Type.Optional(Type.String({ maxLength: 200 })),
    },
    { description: "The host product's user: found by `external_id`, else by `email`, else created" },
  ),
  project_id: Type.Optional(Uuid({ description: "Open this project (one of the user's)" })),
  mode: StringEnum(EMBED_MODES),
  permissions: Type.Optional(
    Type.Array(StringEnum(EMBED_ABILITIES), {
      uniqueItems: true,
      maxItems: EMBED_ABILITIES.length,
      description: 'What the session may do besides reading: default `generate` and `edit`',
    }),
  ),
  allowed_origins: Type.Optional(
    Type.Array(Origin, {
      maxItems: 20,
      description: "The parent origins that may frame it: a subset of the organization's (default: all)",
    }),
  ),
  ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 3600, description: 'Default 900' })),
  locale: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$', maxLength: 35 })),
  theme: Type.Optional(
    Body({
      accent: Type.Optional(
        Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'A colour, `#rrggbb`' }),
      ),
      mode: Type.Optional(StringEnum(['light', 'dark'] as const)),
    }),
  ),
});
export type CreateEmbedSessionBody = Static<typeof CreateEmbedSessionBody>;

export const EmbedSession = Type.Object(
  {
    id: Uuid(),
    token: Type.String({ description: 'The session token (`embt_...`): shown once, only its hash is kept' }),
    expires_at: DateTime(),
    mode: StringEnum(EMBED_MODES),
    client_id: Uuid(),
    project_id: Nullable(Uuid()),
    permissions: Type.Array(StringEnum(EMBED_ABILITIES)),
    allowed_origins: Type.Array(Type.String()),
    frame_url: Type.String({ description: 'The full widget: load it with the host SDK (no token in it)' }),
    preview_url: Nullable(
      Type.String({ description: "The preview pane of the session's project (null without a project)" }),
    ),
  },
  { title: 'EmbedSession', additionalProperties: false },
);
export type EmbedSession = Static<typeof EmbedSession>;

export const EmbedSessionParams = Type.Object({ sessionId: Uuid() });

export interface EmbedTheme {
  accent: string | null;
  mode: 'light' | 'dark';
}
