import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../common/schema.ts';

export const DnsRecord = Type.Object(
  {
    type: StringEnum(['CNAME', 'A', 'TXT'] as const),
    name: Type.String(),
    value: Type.String(),
    status: StringEnum(['ok', 'missing', 'wrong', 'unchecked'] as const, {
      description: 'What the last DNS check found',
    }),
  },
  { additionalProperties: false },
);
export type DnsRecord = Static<typeof DnsRecord>;

export const Domain = Type.Object(
  {
    id: Uuid(),
    project_id: Uuid(),
    domain: Type.String({ description: 'Lower-case ASCII; international names in punycode' }),
    subdomain: Nullable(
      Type.String({ description: 'The labels left of the registrable domain; null for an apex domain' }),
    ),
    status: StringEnum(['pending', 'active', 'failed'] as const, {
      description:
        '`pending` until both DNS records are right; `active` then; `failed` when still not verified 7 days after it was added (verify can still activate it)',
    }),
    dns_records: Type.Array(DnsRecord, {
      description:
        'What the owner must create: routing (CNAME, or A for an apex when SITES_IPV4 is set) and the TXT ownership token',
    }),
    ssl_status: StringEnum(['pending', 'active'] as const, {
      description: 'Certificates are issued on demand by the front proxy once the domain is active',
    }),
    verified_at: Nullable(DateTime()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'CustomDomain', additionalProperties: false },
);
export type CustomDomain = Static<typeof Domain>;
