// Outgoing mail: SMTP through nodemailer when SMTP_URL is set; otherwise each message is written
// to the log (links included), so a single-machine install without a mail server still works.
import nodemailer from 'nodemailer';
import type { Mailer } from '../modules/mail/mailer.ts';

export interface MailLogger {
  info(obj: object, msg?: string): void;
}

export function createMailer(
  opts: { smtpUrl: string | undefined; from: string },
  logger?: MailLogger,
): Mailer {
  if (!opts.smtpUrl) {
    return {
      send: async (message) => {
        logger?.info(
          { mail: { from: opts.from, ...message } },
          `mail to ${message.to} (no SMTP_URL: logged, not sent)`,
        );
      },
    };
  }
  // Bounded well inside the mail sender's lease (modules/mail/sender.ts): a server that stalls
  // fails the try, rather than outliving the lease and letting another worker send it twice.
  const transport = nodemailer.createTransport(opts.smtpUrl, {
    connectionTimeout: 20_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    dnsTimeout: 10_000,
  });
  return {
    send: async (message) => {
      await transport.sendMail({
        from: opts.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      });
    },
  };
}
