import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { Body, Nullable } from '../common/schema.ts';

/** The owner's public facts about the business: each absent (null) until the owner gives it. */
const factFields = {
  address: Type.String({ maxLength: 300, description: 'The postal address, as written for visitors' }),
  phone: Type.String({ maxLength: 40, description: 'The phone number visitors call' }),
  email: Type.String({ maxLength: 254, description: 'The public email address' }),
  opening_hours: Type.String({
    maxLength: 500,
    description:
      'One line per rule. Lines in schema.org form (`Mo-Fr 09:00-17:00`) also go into the JSON-LD; others are kept as written',
  }),
};

const nullableAll = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Nullable(v)])) as {
    [K in keyof T]: ReturnType<typeof Nullable<T[K]>>;
  };
const optionalAll = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

export const Facts = Type.Object(nullableAll(factFields), { additionalProperties: false });
export type Facts = Static<typeof Facts>;

const settingFields = {
  site_name: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The name shared links and search results show (`og:site_name`, JSON-LD `name`)',
  }),
  language: Type.String({
    minLength: 2,
    maxLength: 35,
    description: 'The pages’ language as a BCP 47 tag (`en`, `pt-BR`): written into `<html lang>`',
  }),
  description: Type.String({
    minLength: 1,
    maxLength: 300,
    description: 'What the site is about, for pages that have no meta description of their own',
  }),
  social_image: Type.String({
    maxLength: 255,
    description: 'Path of one of the project’s images (PNG, JPEG, WebP or GIF): the picture of a shared link',
  }),
  favicon: Type.String({
    maxLength: 255,
    description:
      'Path of one of the project’s files (SVG, PNG or ICO); null: the page’s own or the generated icon',
  }),
};

const FormNotify = Type.Array(Type.String({ minLength: 1, maxLength: 254 }), {
  maxItems: 10,
  description:
    'Who is emailed about each form message: `"client"` (the client’s portal users), `"members"` (the agency’s members) or email addresses',
});

/** A form's own rules, over the site's: who hears about its messages, and the visitor's copy. */
export const FormRules = Type.Object(
  {
    notify: Nullable(FormNotify),
    visitor_copy: Type.Boolean({
      description:
        'Mail the visitor a copy of what they sent, to the address in the form’s email field (at most one a day per address and site)',
    }),
  },
  { additionalProperties: false },
);
export type FormRules = Static<typeof FormRules>;

/** A form's name, as in /_forms/{formName}. */
export const FORM_NAME = '^[A-Za-z0-9_-]{1,64}$';

export const SiteSettings = Type.Object(
  {
    ...nullableAll(settingFields),
    facts: Facts,
    form_notify: Nullable(FormNotify),
    form_digest: Type.Boolean({
      description:
        'Mail the day’s form messages once, shortly after midnight UTC, instead of one mail per message',
    }),
    forms: Type.Record(Type.String({ pattern: FORM_NAME }), FormRules, {
      description: 'Rules of single forms by name (`contact`), over `form_notify`',
      maxProperties: 20,
      // A name that is no form's (`no spaces`) is refused, not kept.
      additionalProperties: false,
    }),
    redirect_subdomain: Type.Boolean({
      description:
        'When true and the site has a verified custom domain, its default subdomain answers 301 to the same path on that domain',
    }),
  },
  { title: 'SiteSettings', additionalProperties: false },
);
export type SiteSettings = Static<typeof SiteSettings>;

export const SiteSettingsPatch = Body(
  {
    ...optionalAll(nullableAll(settingFields)),
    facts: Type.Optional(
      Nullable(Type.Object(optionalAll(nullableAll(factFields)), { additionalProperties: false })),
    ),
    form_notify: Type.Optional(Nullable(FormNotify)),
    form_digest: Type.Optional(Type.Boolean()),
    forms: Type.Optional(
      Type.Record(
        Type.String({ pattern: FORM_NAME }),
        Nullable(Type.Object(optionalAll(FormRules.properties), { additionalProperties: false })),
        {
          maxProperties: 20,
          additionalProperties: false,
          description: 'Only the forms named change; `null` removes a form’s rules',
        },
      ),
    ),
    redirect_subdomain: Type.Optional(Type.Boolean()),
  },
  { description: 'Only the fields named change; in `facts`, only the facts named. `null` clears a field.' },
);
export type SiteSettingsPatch = Static<typeof SiteSettingsPatch>;

/** The settings of a project that has none yet. */
export const NO_SETTINGS: SiteSettings = {
  site_name: null,
  language: null,
  description: null,
  social_image: null,
  favicon: null,
  facts: { address: null, phone: null, email: null, opening_hours: null },
  form_notify: null,
  form_digest: false,
  forms: {},
  redirect_subdomain: false,
};
