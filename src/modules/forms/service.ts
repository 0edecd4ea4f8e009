// Form submissions of published sites: taken in (any <form> posting to the site's own
// /_forms/{name}), listed and deleted by the agency. A submission is stored with its form name,
// page and time, and its form.submitted event goes into the webhook outbox in the same
// transaction, so nothing is lost while the agency's endpoint is down. A filled-in hidden
// `_gotcha` field (a honeypot) and a per-address limit stop simple spam.
import type { Database } from '../../db/index.ts';
import { recordEvent } from '../../events/outbox.ts';
import { signalWork } from '../../jobs/signal.ts';
import { queueMails } from '../mail/outbox-repo.ts';
import { formMails } from './mail.ts';
import { newId } from '../../lib/ids.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { RateLimitedError, invalid, notFound } from '../common/errors.ts';
import { requireAbility, requirePermission } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';
import type { Principal } from '../access/principal.ts';

/** One submission of one project's forms: named, so that the two ids cannot be swapped. */
export interface SubmissionRef {
  projectId: string;
  submissionId: string;
}
import * as repo from './repo.ts';
import type { ListSubmissionsQuery, Submission } from './schema.ts';

const HONEYPOT = '_gotcha';
const MAX_FIELDS = 50;
const MAX_NAME_LENGTH = 100;
const MAX_VALUE_LENGTH = 10_000;

export interface FormSite {
  orgId: string;
  projectId: string;
}

export class FormsService {
  constructor(
    private readonly database: Database,
    private readonly limiter: RateLimiter,
    /** The dashboard's address, for the links in form mail. */
    private readonly publicUrl: string,
  ) {}

  async list(
    principal: Principal,
    projectId: string,
    query: ListSubmissionsQuery,
  ): Promise<{ submissions: Submission[]; total: number }> {
    await visibleProject(this.database.db, principal, projectId);
    return repo.listSubmissions(this.database.db, principal.orgId, projectId, {
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
      form: query.form,
    });
  }

  async delete(principal: Principal, { projectId, submissionId }: SubmissionRef): Promise<void> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'edit');
    await visibleProject(this.database.db, principal, projectId);
    const { db } = this.database;
    if (!(await repo.deleteSubmission(db, principal.orgId, projectId, submissionId)))
      throw notFound('Submission');
  }

  /** Counts a post from `address` to the site; refused past the limit, before its body is read. */
  async admit(site: FormSite, address: string): Promise<void> {
    const rate = await this.limiter.consume(`${site.projectId}:${address}`);
    if (!rate.allowed)
      throw new RateLimitedError(
        'Too many submissions from your address; please try again later',
        rate.resetSeconds,
      );
  }

  /**
   * Stores a submission of the posted `entries` (name, value; values that are not text are kept
   * as JSON). A filled-in honeypot is accepted and dropped, so a bot learns nothing.
   */
  async submit(
    site: FormSite,
    form: string,
    entries: [string, unknown][],
    page: string | null,
  ): Promise<void> {
    if (entries.length > MAX_FIELDS) throw invalid(`A form may have at most ${MAX_FIELDS} fields`);
    const fields: Record<string, string> = {};
    for (const [key, value] of entries) {
      if (key.length > MAX_NAME_LENGTH)
        throw invalid(`Field names are at most ${MAX_NAME_LENGTH} characters`);
      fields[key] = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, MAX_VALUE_LENGTH);
    }
    if (fields[HONEYPOT]) return;
    delete fields[HONEYPOT];
    const submission = {
      id: newId(),
      project_id: site.projectId,
      form,
      fields,
      page,
      created_at: new Date().toISOString(),
    };
    await this.database.transaction(async (trx) => {
      await repo.insertSubmission(trx, site.orgId, submission);
      await recordEvent(trx, { orgId: site.orgId, type: 'form.submitted', data: { submission } });
      // Mailed only once stored: spam (the honeypot above, the limit in admit) never is.
      await queueMails(trx, await formMails(trx, site, submission, this.publicUrl));
    });
    signalWork('mail');
  }
}
