import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';
import { pagingParams } from '../common/paging.ts';

export const PROJECT_STATUSES = ['active', 'archived'] as const;

/** Tag limits: generous for labelling, small enough that a project row stays small. */
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 50;

export const Project = Type.Object(
  {
    id: Uuid(),
    user_id: Uuid({ description: "The builder user that owns the project: the client's user" }),
    org_id: Nullable(Uuid()),
    org_client_id: Nullable(Uuid({ description: 'The agency client the project belongs to' })),
    name: Type.String(),
    description: Nullable(Type.String()),
    status: StringEnum(PROJECT_STATUSES),
    template: Nullable(Type.String({ description: 'Name of the template the project started from' })),
    tags: Type.Array(Type.String()),
    starred: Type.Boolean(),
    is_public: Type.Boolean(),
    subdomain: Nullable(
      Type.String({
        description: 'Unique across the service; derived from the name at creation and kept on rename',
      }),
    ),
    custom_domain: Nullable(Type.String()),
    custom_domain_status: Nullable(Type.String()),
    published_url: Nullable(
      Type.String({ description: 'Live website address; null until the project is published' }),
    ),
    last_published_at: Nullable(DateTime()),
    preview_image_url: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
    last_opened_at: Nullable(DateTime()),
  },
  { title: 'Project', additionalProperties: false },
);
export type Project = Static<typeof Project>;

export const ProjectParams = Type.Object({ projectId: Uuid() });

export const DEFAULT_LIMIT = 50;

export const ListProjectsQuery = Type.Object(
  {
    ...pagingParams(DEFAULT_LIMIT),
    client_id: Type.Optional(Uuid({ description: "Only this client's projects" })),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Case-insensitive substring of the name; % and _ match themselves',
      }),
    ),
    status: Type.Optional(StringEnum(PROJECT_STATUSES)),
  },
  // A misspelt filter must not silently return everything.
  { additionalProperties: false },
);
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;

const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Leading and trailing spaces are trimmed; must not be blank',
});
const Description = Nullable(Type.String({ maxLength: 2000 }));

export const CreateProjectBody = Body({
  client_email: Type.String({
    format: 'email',
    maxLength: 254,
    description: 'A client of the organization, matched case-insensitively',
  }),
  name: Name,
  description: Type.Optional(Description),
  template_id: Type.Optional(Uuid({ description: 'A template of the organization the project starts from' })),
});
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Body({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  status: Type.Optional(StringEnum(PROJECT_STATUSES)),
  tags: Type.Optional(
    Type.Array(Type.String({ maxLength: MAX_TAG_LENGTH }), {
      maxItems: MAX_TAGS,
      description: 'Replaces the tags. Each is trimmed; empty tags and duplicates are dropped',
    }),
  ),
});
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;
