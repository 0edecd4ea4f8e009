// What the core sends mail through (the port): the adapter is providers/mail.ts.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Where a reply goes (a form message: the visitor who sent it). */
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
