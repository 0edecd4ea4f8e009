import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, NUL_ALLOWED, Nullable, Uuid } from '../common/schema.ts';
import { pagingParams } from '../common/paging.ts';
import { Project } from '../projects/schema.ts';

export const ProjectParams = Type.Object({ projectId: Uuid() });

export const PublishBody = Type.Optional(
  Body({
    builtFiles: Type.Optional(
      Type.Record(Type.String(), Type.String({ [NUL_ALLOWED]: true }), {
        description:
          'Path -> UTF-8 content. When given, exactly these files are published; otherwise the project’s current files.',
      }),
    ),
  }),
);
export type PublishBody = Static<typeof PublishBody>;

export const Published = Type.Object(
  {
    url: Type.String({ description: 'The live address' }),
    deployId: Uuid({ description: 'The immutable deployment now served' }),
    status: Type.Literal('ready'),
    project: Project,
  },
  { additionalProperties: false },
);
export type Published = Static<typeof Published>;

export const Preview = Type.Object(
  {
    published_url: Nullable(Type.String()),
    has_published: Type.Boolean({ description: 'Whether the site is live now' }),
    embed_preview_path: Type.String({ description: 'Where the embeddable builder mounts the preview pane' }),
    preview_url: Type.String({
      description:
        'A signed link to the current, unpublished files; anyone holding it can open it until it expires',
    }),
    preview_expires_at: DateTime(),
  },
  { additionalProperties: false },
);
export type Preview = Static<typeof Preview>;

export const Deployment = Type.Object(
  {
    id: Uuid(),
    version_id: Nullable(
      Uuid({
        description:
          'The version it published; null when published from `builtFiles` (or before versions existed)',
      }),
    ),
    version_number: Nullable(Type.Integer({ minimum: 1 })),
    file_count: Type.Integer({ minimum: 0 }),
    size: Type.Integer({ minimum: 0, description: 'Bytes of all its files' }),
    created_at: DateTime(),
    live: Type.Boolean({ description: 'Whether the site serves it now' }),
  },
  { title: 'Deployment', additionalProperties: false },
);
export type Deployment = Static<typeof Deployment>;

export const DeploymentList = Type.Object(
  { deployments: Type.Array(Deployment), total: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export const DeploymentParams = Type.Object({ projectId: Uuid(), deploymentId: Uuid() });
export const ListDeploymentsQuery = Type.Object({ ...pagingParams(20) }, { additionalProperties: false });
