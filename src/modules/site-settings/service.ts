// Site settings: what the owner says about the site as a whole (its name, language, description,
// shared-link picture, icon, public facts, who hears about form messages). Publishing writes them
// into the deployment (publishing/seo/); previews show them at once.
import type { Database } from '../../db/index.ts';
import { signalWork } from '../../jobs/signal.ts';
import { invalid } from '../common/errors.ts';
import { isEmailAddress as isEmail } from '../common/validator.ts';
import { lockProject } from '../projects/repo.ts';
import { fileExists, readProjectFiles } from '../files/repo.ts';
import { isInternalPath, normalisePath, PathError } from '../files/paths.ts';
import { requireAbility, requirePermission, requireVisibleProject } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';
import type { Principal } from '../access/principal.ts';
import type { SiteSettings, SiteSettingsPatch } from './schema.ts';
import { readSiteSettings, writeSiteSettings } from './repo.ts';

/** A BCP 47 language tag in its common form: a 2-3 letter language, then subtags. */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i;
const IMAGE = /\.(?:png|jpe?g|webp|gif)$/i;
const ICON = /\.(?:svg|png|ico)$/i;
/** A form's `action` naming the edge's form path (edge/forms.ts), however the URL is written. */
const FORM_ACTION = /\saction\s*=\s*["']?(?:[^"'\s>]*\/)?_forms\/([A-Za-z0-9_-]{1,64})(?=[/"'\s>?])/gi;

export class SiteSettingsService {
  constructor(private readonly database: Database) {}

  async get(principal: Principal, projectId: string): Promise<SiteSettings> {
    await visibleProject(this.database.db, principal, projectId);
    return readSiteSettings(this.database.db, principal.orgId, projectId);
  }

  /**
   * The names of the site's forms: those its pages post to (`/_forms/{name}`) and those with rules
   * of their own, sorted; for setting each one's rules (the builder's Settings tab).
   */
  async formNames(principal: Principal, projectId: string): Promise<string[]> {
    await visibleProject(this.database.db, principal, projectId);
    const names = new Set(
      Object.keys((await readSiteSettings(this.database.db, principal.orgId, projectId)).forms),
    );
    for (const file of await readProjectFiles(this.database.db, principal.orgId, projectId, true)) {
      if (!/\.html?$/i.test(file.path) || isInternalPath(file.path)) continue;
      const html = typeof file.content === 'string' ? file.content : file.content.toString('utf8');
      for (const match of html.matchAll(FORM_ACTION)) names.add(match[1]!);
    }
    return [...names].sort().slice(0, 20);
  }

  /** Changes only the fields `patch` names (in `facts`, only the facts it names). */
  async update(principal: Principal, projectId: string, patch: SiteSettingsPatch): Promise<SiteSettings> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'edit');
    const { orgId } = principal;
    const settings = await this.database.transaction(async (trx) => {
      // Locked: two changes at once each keep the other's fields.
      requireVisibleProject(principal, await lockProject(trx, orgId, projectId));
      const current = await readSiteSettings(trx, orgId, projectId);
      const { facts, forms, ...fields } = patch;
      const next: SiteSettings = {
        ...current,
        ...fields,
        facts: facts === null ? { ...NO_FACTS } : { ...current.facts, ...facts },
        forms: mergeForms(current.forms, forms),
      };
      if (patch.language != null) next.language = checkLanguage(patch.language);
      if (patch.facts?.email != null) checkEmail('facts.email', patch.facts.email);
      if (patch.form_notify != null) next.form_notify = checkNotify('form_notify', patch.form_notify);
      for (const [name, rules] of Object.entries(patch.forms ?? {}))
        if (rules?.notify) next.forms[name]!.notify = checkNotify(`forms.${name}.notify`, rules.notify);
      if (Object.keys(next.forms).length > 20)
        throw invalid("field 'forms': at most 20 forms have rules of their own");
      for (const [field, kinds, allowed] of [
        ['social_image', 'PNG, JPEG, WebP or GIF', IMAGE],
        ['favicon', 'SVG, PNG or ICO', ICON],
      ] as const) {
        const raw = patch[field];
        if (raw == null) continue;
        next[field] = checkPath(field, raw, kinds, allowed);
        if (!(await fileExists(trx, orgId, projectId, next[field]!)))
          throw invalid(`field '${field}': the project has no file '${next[field]}'`);
      }
      for (const text of ['site_name', 'description'] as const) next[text] = trimmed(next[text]);
      for (const fact of ['address', 'phone', 'opening_hours'] as const)
        next.facts[fact] = trimmed(next.facts[fact]);
      await writeSiteSettings(trx, orgId, projectId, next);
      return next;
    });
    // The site edge forgets what it knew of the site (redirect_subdomain applies at once).
    signalWork('sites');
    return settings;
  }
}

/** The forms a PATCH names replace their rules (field by field); `null` removes a form's. */
function mergeForms(
  current: SiteSettings['forms'],
  patch: SiteSettingsPatch['forms'],
): SiteSettings['forms'] {
  const out = { ...current };
  for (const [name, rules] of Object.entries(patch ?? {})) {
    if (rules === null) delete out[name];
    else out[name] = { notify: null, visitor_copy: false, ...out[name], ...rules };
  }
  return out;
}

const NO_FACTS: SiteSettings['facts'] = { address: null, phone: null, email: null, opening_hours: null };

/** Blank text is no text: a fact made of spaces is a fact not given. Line breaks are \n (forms send \r\n). */
const trimmed = (value: string | null): string | null =>
  value?.trim() ? value.trim().replace(/\r\n?/g, '\n') : null;

function checkLanguage(tag: string): string {
  if (!LANGUAGE_TAG.test(tag))
    throw invalid(`field 'language': '${tag}' is not a language tag (for example en, de or pt-BR)`);
  // The conventional case: language lower, region upper (pt-BR), script title (zh-Hant).
  return tag
    .split('-')
    .map((part, i) =>
      i === 0
        ? part.toLowerCase()
        : part.length === 2
          ? part.toUpperCase()
          : part.length === 4
            ? part[0]!.toUpperCase() + part.slice(1).toLowerCase()
            : part.toLowerCase(),
    )
    .join('-');
}

function checkEmail(field: string, value: string): void {
  if (!isEmail(value)) throw invalid(`field '${field}': '${value}' is not an email address`);
}

/** `client`, `members` or addresses; duplicates (addresses compared without case) kept once. */
function checkNotify(field: string, list: string[]): string[] {
  const seen = new Map<string, string>();
  for (const [i, raw] of list.entries()) {
    const entry = raw.trim();
    if (entry !== 'client' && entry !== 'members') checkEmail(`${field}[${i}]`, entry);
    const key = entry.toLowerCase();
    if (!seen.has(key)) seen.set(key, entry);
  }
  return [...seen.values()];
}

function checkPath(field: string, raw: string, kinds: string, allowed: RegExp): string {
  let path: string;
  try {
    // A site path as a page would write it (`/img/a.png`) names the same file.
    path = normalisePath(raw.replace(/^\/(?!\/)/, ''));
  } catch (error) {
    if (error instanceof PathError) throw invalid(`field '${field}': the path ${error.message}`);
    throw error;
  }
  if (isInternalPath(path)) throw invalid(`field '${field}': '${path}' is not a file the site serves`);
  if (!allowed.test(path)) throw invalid(`field '${field}': must be a ${kinds} file, not '${path}'`);
  return path;
}
