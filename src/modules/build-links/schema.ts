import { Type, type Static } from '@sinclair/typebox';
import { Body, Uuid } from '../common/schema.ts';

export const MAX_BUILD_PROMPT = 50_000;

export const CreateBuildLinkBody = Body({
  prompt: Type.String({
    minLength: 1,
    maxLength: MAX_BUILD_PROMPT,
    description: 'What the visitor’s website should be; the build starts with it',
  }),
  model: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'One of the configured models; default AI_DEFAULT_MODEL',
    }),
  ),
  template_id: Type.Optional(
    Uuid({ description: 'A public template (`is_public`) of the organization the project starts from' }),
  ),
});
export type CreateBuildLinkBody = Static<typeof CreateBuildLinkBody>;

export const BuildLink = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description:
        'The link to hand a person: opening it signs them up or in, creates the project and starts the build',
    }),
  },
  { additionalProperties: false },
);

/** What a `/build` visit asks for, however it came (query, a kept visit, an API link). */
export interface BuildRequest {
  prompt: string;
  model: string | null;
  templateId: string | null;
  /** The organization whose build link it is (null: whichever the signed-in person works in). */
  orgId: string | null;
}
