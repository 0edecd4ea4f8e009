// The mail form messages send, as plain text (the fields as the visitor wrote them, nothing fetched,
// nothing rendered), queued in the outbox (mail/outbox-repo.ts) so an SMTP outage delays it and
// never loses it:
// - to the form's recipients (its own rules, else the site's `form_notify`, else its client), one
//   mail per message with Reply-To the visitor, or one digest a day when the site asks for it;
// - to the visitor, a copy, when the form asks for one: only to the address the message itself
//   gives, at most once a day per address and site.
import type { Executor } from '../../db/executor.ts';
import { isEmailAddress as isEmail } from '../common/validator.ts';
import { mailedSince, type QueuedMail } from '../mail/outbox-repo.ts';
import { readSiteSettings } from '../site-settings/repo.ts';
import type { SiteSettings } from '../site-settings/schema.ts';
import { formSite, memberEmails, submissionsBetween } from './repo.ts';
import type { Submission } from './schema.ts';

/** Field names that carry the visitor's own address. */
const REPLY_FIELD = /^(?:e-?mail|your[-_ ]?e-?mail|e-?mail[-_ ]?address|_?reply[-_]?to)$/i;
/** Who hears about form messages when the owner has not said. */
export const DEFAULT_FORM_NOTIFY = ['client'];
/** A digest lists this many messages at most; the link shows the rest. */
const DIGEST_LIMIT = 200;
const DAY_MS = 86_400_000;

/** The visitor's address, when the form has a field for it and it holds one. */
export function replyAddress(fields: Record<string, string>): string | null {
  for (const [name, value] of Object.entries(fields))
    if (REPLY_FIELD.test(name.trim()) && isEmail(value.trim()) && !/[\r\n]/.test(value)) return value.trim();
  return null;
}

/** Control characters (but line breaks) and bidirectional overrides: nothing may hide in a mail. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
const plain = (value: string) => value.replace(HIDDEN, '');
const oneLine = (value: string) => plain(value).replace(/\s+/g, ' ').trim();

type Who = 'client' | 'members' | 'address';
interface Recipient {
  email: string;
  who: Who;
}
interface Site {
  orgId: string;
  projectId: string;
}
type Project = NonNullable<Awaited<ReturnType<typeof formSite>>>;

/** The mail one stored message sends now (none for the recipients of a daily digest). */
export async function formMails(
  trx: Executor,
  site: Site,
  submission: Submission,
  publicUrl: string,
): Promise<QueuedMail[]> {
  const project = await formSite(trx, site.orgId, site.projectId);
  if (!project) return [];
  const settings = await readSiteSettings(trx, site.orgId, site.projectId);
  const replyTo = replyAddress(submission.fields);
  const mails: QueuedMail[] = [];
  if (!settings.form_digest) {
    const subject = oneLine(`New message from the ${submission.form} form on ${project.name}`).slice(0, 200);
    for (const { email, who } of await recipientsOf(trx, site, project, settings, submission.form))
      mails.push({
        ...site,
        kind: 'form_notify',
        to: email,
        replyTo,
        subject,
        text: `${intro(project, submission)}\n\n${fieldsText(submission)}${
          replyTo ? '\n\nReply to this mail to answer the visitor.' : ''
        }${link(publicUrl, site, who)}\n`,
      });
  }
  const since = new Date(Date.now() - DAY_MS).toISOString();
  const copyAddress = replyTo ?? '';
  if (
    settings.forms[submission.form]?.visitor_copy &&
    replyTo &&
    !(await mailedSince(trx, { ...site, kind: 'form_copy', address: copyAddress }, since))
  )
    mails.push({
      ...site,
      kind: 'form_copy',
      to: replyTo,
      replyTo: settings.facts.email,
      subject: oneLine(`Your message to ${project.name}`).slice(0, 200),
      text: `Thank you for your message to ${oneLine(project.name)}. This is a copy of what you sent on ${when(
        submission,
      )} UTC:\n\n${fieldsText(submission)}\n\nYou get this copy because the form was sent with this address. If that was not you, nothing more will come: no list was joined.\n`,
    });
  return mails;
}

/**
 * A day's digest of one site's messages (`day`: YYYY-MM-DD, UTC): one mail per recipient, listing
 * the messages of the forms it hears about, under a key that makes it queued once.
 */
export async function digestMails(
  db: Executor,
  site: Site,
  day: string,
  publicUrl: string,
): Promise<(QueuedMail & { dedupeKey: string })[]> {
  const project = await formSite(db, site.orgId, site.projectId);
  if (!project) return [];
  const settings = await readSiteSettings(db, site.orgId, site.projectId);
  if (!settings.form_digest) return [];
  const from = `${day}T00:00:00.000Z`;
  const to = new Date(Date.parse(from) + DAY_MS).toISOString();
  const messages = await submissionsBetween(db, site.orgId, site.projectId, {
    from,
    to,
    limit: DIGEST_LIMIT + 1,
  });
  const byRecipient = new Map<string, { recipient: Recipient; messages: Submission[] }>();
  const recipientsByForm = new Map<string, Recipient[]>();
  for (const message of messages.slice(0, DIGEST_LIMIT)) {
    if (!recipientsByForm.has(message.form))
      recipientsByForm.set(message.form, await recipientsOf(db, site, project, settings, message.form));
    for (const recipient of recipientsByForm.get(message.form)!) {
      const key = recipient.email.toLowerCase();
      if (!byRecipient.has(key)) byRecipient.set(key, { recipient, messages: [] });
      byRecipient.get(key)!.messages.push(message);
    }
  }
  const more = messages.length > DIGEST_LIMIT ? '\n\nMore messages came that day than a mail lists.' : '';
  return [...byRecipient.entries()].map(([key, { recipient, messages: listed }]) => ({
    ...site,
    kind: 'form_digest',
    to: recipient.email,
    replyTo: null,
    subject: oneLine(
      `${listed.length} form message${listed.length === 1 ? '' : 's'} on ${project.name}, ${day}`,
    ).slice(0, 200),
    text: `${listed.length} message${listed.length === 1 ? '' : 's'} on ${oneLine(project.name)} on ${day} (UTC):\n\n${listed
      .map((message) => {
        const reply = replyAddress(message.fields);
        return `--- ${intro(project, message)}${reply ? `\nReply to: ${reply}` : ''}\n\n${fieldsText(message)}`;
      })
      .join('\n\n')}${more}${link(publicUrl, site, recipient.who)}\n`,
    dedupeKey: `form_digest:${site.projectId}:${day}:${key}`,
  }));
}

/** The form's recipients: its own rules, else the site's, else the client; each address once. */
async function recipientsOf(
  db: Executor,
  site: Site,
  project: Project,
  settings: SiteSettings,
  form: string,
): Promise<Recipient[]> {
  const entries = settings.forms[form]?.notify ?? settings.form_notify ?? DEFAULT_FORM_NOTIFY;
  const recipients = new Map<string, Recipient>();
  for (const entry of entries) {
    const found: Recipient[] =
      entry === 'client'
        ? project.client_email
          ? [{ email: project.client_email, who: 'client' }]
          : []
        : entry === 'members'
          ? (await memberEmails(db, site.orgId)).map((email) => ({ email, who: 'members' as const }))
          : [{ email: entry, who: 'address' }];
    for (const recipient of found)
      if (!recipients.has(recipient.email.toLowerCase()))
        recipients.set(recipient.email.toLowerCase(), recipient);
  }
  return [...recipients.values()];
}

const when = (submission: Submission) => submission.created_at.slice(0, 16).replace('T', ' ');

function intro(project: Project, submission: Submission): string {
  const page = submission.page ? ` (page ${oneLine(submission.page)})` : '';
  return `A visitor sent the "${oneLine(submission.form)}" form on ${oneLine(project.name)}${page}, ${when(submission)} UTC.`;
}

function fieldsText(submission: Submission): string {
  const lines = Object.entries(submission.fields).map(([name, value]) => {
    const text = plain(value).trim();
    return text.includes('\n')
      ? `${oneLine(name)}:\n${text.replace(/^/gm, '  ')}`
      : `${oneLine(name)}: ${text}`;
  });
  return lines.join('\n') || '(no fields)';
}

/** The client's mail links to the portal, the members' to the dashboard; an address gets none. */
function link(publicUrl: string, site: Site, who: Who): string {
  const base = publicUrl.replace(/\/$/, '');
  if (who === 'client') return `\n\nEvery message: ${base}/portal/projects/${site.projectId}`;
  if (who === 'members') return `\n\nEvery message: ${base}/projects/${site.projectId}`;
  return '';
}
