import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, Uuid } from '../common/schema.ts';
import { pagingParams } from '../common/paging.ts';

export const Submission = Type.Object(
  {
    id: Uuid(),
    project_id: Uuid(),
    form: Type.String({ description: 'The {formName} of /_forms/{formName}' }),
    fields: Type.Record(Type.String(), Type.String(), {
      description: 'The posted fields (the honeypot removed)',
    }),
    page: Nullable(Type.String({ description: 'Path of the page the form was sent from, when known' })),
    created_at: DateTime(),
  },
  { title: 'FormSubmission', additionalProperties: false },
);
export type Submission = Static<typeof Submission>;

export const ListSubmissionsQuery = Type.Object(
  {
    ...pagingParams(50),
    form: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type ListSubmissionsQuery = Static<typeof ListSubmissionsQuery>;
