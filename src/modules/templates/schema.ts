import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, Uuid } from '../common/schema.ts';

export const DEFAULT_CATEGORY = 'general';

export const Template = Type.Object(
  {
    id: Uuid(),
    org_id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    category: Type.String(),
    thumbnail_url: Nullable(Type.String()),
    is_public: Type.Boolean({
      description: 'Public within the organization: every client can start from it',
    }),
    is_featured: Type.Boolean(),
    created_at: DateTime(),
  },
  { title: 'Template', additionalProperties: false },
);
export type Template = Static<typeof Template>;

export const TemplateParams = Type.Object({ templateId: Uuid() });

const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Leading and trailing spaces are trimmed; must not be blank',
});
const Description = Nullable(Type.String({ maxLength: 2000 }));
const Category = Type.String({ minLength: 1, maxLength: 100 });
// Thumbnails are shown in dashboards: only web addresses, never javascript: or data: URLs.
const ThumbnailUrl = Nullable(
  Type.String({
    format: 'uri',
    pattern: '^https?://[^/?#\\s]+',
    maxLength: 2048,
    description: 'An http(s) URL; null removes it',
  }),
);

export const CreateTemplateBody = Body({
  name: Name,
  description: Type.Optional(Description),
  category: Type.Optional({ ...Category, default: DEFAULT_CATEGORY }),
  source_project_id: Type.Optional(
    Uuid({ description: 'A project of the organization whose files the template snapshots' }),
  ),
  is_public: Type.Optional(Type.Boolean({ default: false })),
});
export type CreateTemplateBody = Static<typeof CreateTemplateBody>;

export const UpdateTemplateBody = Body({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  category: Type.Optional(Category),
  thumbnail_url: Type.Optional(ThumbnailUrl),
  is_public: Type.Optional(Type.Boolean()),
  is_featured: Type.Optional(Type.Boolean()),
});
export type UpdateTemplateBody = Static<typeof UpdateTemplateBody>;
