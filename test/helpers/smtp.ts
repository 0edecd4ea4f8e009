// A real SMTP server on loopback (smtp-server) that keeps every message it receives, so tests see
// the mail exactly as nodemailer sent it over SMTP_URL. Plain text bodies are decoded from
// quoted-printable or base64 (what nodemailer picks for long lines), enough to find a link.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The Reply-To header ('' when none). */
  replyTo: string;
  /** The decoded text body. */
  text: string;
  raw: string;
}

export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  private server!: SMTPServer;
  private port = 0;

  /** `port`: a fixed one (a server that was down coming back where the app expects it); else any. */
  static async start(port = 0): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await sink.listen(port);
    return sink;
  }

  /** The SMTP_URL for the app: plain SMTP, no STARTTLS (nodemailer: ignoreTLS). */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }

  /** Messages sent to `email` (case-insensitive). */
  to(email: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.some((t) => t.toLowerCase() === email.toLowerCase()));
  }

  /** Resolves with the messages to `email` once there are `count`. */
  async waitFor(email: string, count = 1, timeoutMs = 5_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(email).length < count) {
      if (Date.now() > deadline)
        throw new Error(
          `smtp: ${this.to(email).length} of ${count} messages to ${email} after ${timeoutMs} ms`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.to(email);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private listen(port: number): Promise<void> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.messages.push(
            parse(
              raw,
              session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              session.envelope.rcptTo.map((r) => r.address),
            ),
          );
          callback();
        });
      },
    });
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    text = Buffer.from(
      body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return {
    from,
    to,
    subject: decodeSubject(header('Subject')),
    replyTo: header('Reply-To'),
    text: text.replace(/\r\n/g, '\n'),
    raw,
  };
}

/** Undoes RFC 2047 encoded words (nodemailer encodes a subject with non-ASCII characters). */
function decodeSubject(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}
