import { Type, type Static } from '@sinclair/typebox';
import { DateTime, NUL_ALLOWED, Nullable, StringEnum, Uuid } from '../common/schema.ts';
import { pagingParams } from '../common/paging.ts';
import { FileWithContent } from '../files/schema.ts';

export const VERSION_SOURCES = ['generation', 'edit', 'files_api', 'restore', 'template'] as const;

export const VersionAuthor = Type.Object(
  {
    type: StringEnum(['user', 'api_key'] as const),
    id: Uuid(),
    name: Nullable(Type.String({ description: "The user's name (or email), or the key's name" })),
  },
  { title: 'VersionAuthor', additionalProperties: false },
);

export const Version = Type.Object(
  {
    id: Uuid(),
    project_id: Uuid(),
    number: Type.Integer({ minimum: 1, description: '1, 2, 3... per project' }),
    created_at: DateTime(),
    source: StringEnum(VERSION_SOURCES, {
      description:
        'What made it: a successful `generation`, an `edit` in the builder, a write through the `files_api`, a `restore` of an earlier version, or the `template` the project started from',
    }),
    generation_id: Nullable(Uuid()),
    summary: Nullable(Type.String()),
    author: Nullable(VersionAuthor),
    file_count: Type.Integer({ minimum: 0 }),
    size: Type.Integer({ minimum: 0, description: 'Bytes of all its files' }),
  },
  { title: 'Version', additionalProperties: false },
);
export type Version = Static<typeof Version>;

export const VersionFile = Type.Object(
  {
    path: Type.String(),
    size: Type.Integer({ minimum: 0 }),
    content_type: Type.String(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { title: 'VersionFile', additionalProperties: false },
);
export type VersionFile = Static<typeof VersionFile>;

export const VersionDetail = Type.Object(
  {
    ...Version.properties,
    files: Type.Array(VersionFile),
    preview_url: Type.String({
      description:
        "A signed link that opens this version's files as a site (PREVIEW_TTL), without credentials",
    }),
    preview_expires_at: DateTime(),
  },
  { title: 'VersionDetail', additionalProperties: false },
);
export type VersionDetail = Static<typeof VersionDetail>;

export const VersionList = Type.Object(
  { versions: Type.Array(Version), total: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export const VersionEnvelope = Type.Object({ version: VersionDetail }, { additionalProperties: false });
export const RestoredEnvelope = Type.Object({ version: Version }, { additionalProperties: false });
export const VersionFileEnvelope = Type.Object(
  { file: Type.Omit(FileWithContent, ['updated_at']) },
  { additionalProperties: false },
);

export const VersionParams = Type.Object({ projectId: Uuid(), versionId: Uuid() });
export const VersionFileParams = Type.Object({
  projectId: Uuid(),
  versionId: Uuid(),
  '*': Type.String({ description: 'The file path (may contain /)', [NUL_ALLOWED]: true }),
});
export const ListVersionsQuery = Type.Object({ ...pagingParams(20) }, { additionalProperties: false });

/** Who made a change: a signed-in user or an API key (none for the service's own changes). */
export interface Actor {
  userId?: string | null;
  keyId?: string | null;
}
