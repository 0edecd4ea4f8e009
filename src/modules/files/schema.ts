import { Type, type Static } from '@sinclair/typebox';
import { Body, DateTime, NUL_ALLOWED, StringEnum, Uuid } from '../common/schema.ts';

const fileFields = {
  path: Type.String({ description: 'Normalised relative path, e.g. `index.html`, `assets/logo.svg`' }),
  size: Type.Integer({ minimum: 0, description: 'Bytes' }),
  content_type: Type.String(),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  updated_at: DateTime(),
};

export const FileMeta = Type.Object(fileFields, { title: 'SiteFileMeta', additionalProperties: false });
export type FileMeta = Static<typeof FileMeta>;

export const FileWithContent = Type.Object(
  {
    ...fileFields,
    content: Type.String(),
    encoding: StringEnum(['utf8', 'base64'] as const, {
      description: '`utf8` for text files, `base64` for anything else',
    }),
  },
  { title: 'SiteFile', additionalProperties: false },
);
export type FileWithContent = Static<typeof FileWithContent>;

export const FileList = Type.Object({ files: Type.Array(FileMeta) }, { additionalProperties: false });
export const FileEnvelope = Type.Object({ file: FileMeta }, { additionalProperties: false });
export const FileContentEnvelope = Type.Object({ file: FileWithContent }, { additionalProperties: false });
export const FileDeleted = Type.Object(
  { deleted: Type.Boolean(), path: Type.String() },
  { additionalProperties: false },
);

export const ProjectParams = Type.Object({ projectId: Uuid() });
export const TemplateParams = Type.Object({ templateId: Uuid() });
// The path's own rules (files/paths.ts) refuse a NUL with the message every bad path gets.
export const FileParams = Type.Object({
  projectId: Uuid(),
  '*': Type.String({ description: 'The file path (may contain /)', [NUL_ALLOWED]: true }),
});

export const PutFileBody = Body({
  content: Type.String({
    description: 'The file content: text as is, or base64 with `encoding: "base64"`',
    [NUL_ALLOWED]: true,
  }),
  encoding: Type.Optional(StringEnum(['utf8', 'base64'] as const, { default: 'utf8' })),
});
export type PutFileBody = Static<typeof PutFileBody>;
