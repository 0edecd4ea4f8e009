// The mail a form message sends: to each of the site's `form_notify` recipients (by default its
// client), as plain text (the fields as the visitor wrote them, nothing fetched, nothing rendered),
// with Reply-To set to the visitor's address when the form asked for one, and a link to the
// messages. Queued in the submission's own transaction (mail/outbox-repo.ts): an SMTP outage
// delays it, never loses it.
import type { Executor } from '../../db/executor.ts';
import { makeValidator } from '../common/validator.ts';
import type { QueuedMail } from '../mail/outbox-repo.ts';
import { readSiteSettings } from '../site-settings/repo.ts';
import { formSite, memberEmails } from './repo.ts';
import type { Submission } from './schema.ts';

const isEmail = makeValidator(false).compile({ type: 'string', format: 'email' });
/** Field names that carry the visitor's own address. */
const REPLY_FIELD = /^(?:e-?mail|your[-_ ]?e-?mail|e-?mail[-_ ]?address|_?reply[-_]?to)$/i;
/** Who hears about form messages when the owner has not said. */
export const DEFAULT_FORM_NOTIFY = ['client'];

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

export async function formMails(
  trx: Executor,
  site: { orgId: string; projectId: string },
  submission: Submission,
  publicUrl: string,
): Promise<QueuedMail[]> {
  const project = await formSite(trx, site.orgId, site.projectId);
  if (!project) return [];
  const settings = await readSiteSettings(trx, site.orgId, site.projectId);
  type Who = 'client' | 'members' | 'address';
  const recipients = new Map<string, { email: string; who: Who }>();
  for (const entry of settings.form_notify ?? DEFAULT_FORM_NOTIFY) {
    const found: [string, Who][] =
      entry === 'client'
        ? project.client_email
          ? [[project.client_email, 'client']]
          : []
        : entry === 'members'
          ? (await memberEmails(trx, site.orgId)).map((email) => [email, 'members'])
          : [[entry, 'address']];
    for (const [email, who] of found)
      if (!recipients.has(email.toLowerCase())) recipients.set(email.toLowerCase(), { email, who });
  }
  const replyTo = replyAddress(submission.fields);
  const subject = oneLine(`New message from the ${submission.form} form on ${project.name}`).slice(0, 200);
  const fields = Object.entries(submission.fields)
    .map(([name, value]) => {
      const text = plain(value).trim();
      return text.includes('\n')
        ? `${oneLine(name)}:\n${text.replace(/^/gm, '  ')}`
        : `${oneLine(name)}: ${text}`;
    })
    .join('\n');
  const base = publicUrl.replace(/\/$/, '');
  const when = submission.created_at.slice(0, 16).replace('T', ' ');
  const intro = `A visitor sent the "${oneLine(submission.form)}" form on ${oneLine(project.name)}${submission.page ? ` (page ${oneLine(submission.page)})` : ''}, ${when} UTC.`;
  return [...recipients.values()].map(({ email, who }) => {
    const link =
      who === 'client'
        ? `\n\nEvery message: ${base}/portal/projects/${site.projectId}`
        : who === 'members'
          ? `\n\nEvery message: ${base}/projects/${site.projectId}`
          : '';
    const reply = replyTo ? '\n\nReply to this mail to answer the visitor.' : '';
    return {
      orgId: site.orgId,
      projectId: site.projectId,
      kind: 'form_notify',
      to: email,
      replyTo,
      subject,
      text: `${intro}\n\n${fields || '(no fields)'}${reply}${link}\n`,
    };
  });
}
