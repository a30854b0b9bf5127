/**
 * Outgoing mail behind one interface (CONTRACT.md): SMTP through nodemailer when SMTP_URL
 * is set, otherwise each message is written as an .eml file in DATA_DIR/mail.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../env';
import { lazyImport } from '../lib/lazy-import';

/** nodemailer is loaded by the first mail, not by every process at start-up. */
const loadNodemailer = lazyImport(async () => (await import('nodemailer')).default);

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe on notification mails). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export class FileMailer implements Mailer {
  private readonly transport = lazyImport(async () =>
    (await loadNodemailer()).createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'unix',
    }),
  );
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const transport = await this.transport();
    const info = await transport.sendMail({ from: this.from, ...message });
    fs.mkdirSync(this.dir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
    fs.writeFileSync(path.join(this.dir, name), info.message as Buffer);
    // The subject only: bodies can carry reset links.
    this.log.info({ mail: name, subject: message.subject }, 'mail written');
  }

  async close(): Promise<void> {}
}

export class SmtpMailer implements Mailer {
  private transport: Transporter | undefined;
  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    // Makes no connection by itself: nodemailer connects when a message is sent.
    this.transport ??= (await loadNodemailer()).createTransport(this.url);
    await this.transport.sendMail({ from: this.from, ...message });
    this.log.info({ subject: message.subject }, 'mail sent');
  }

  async close(): Promise<void> {
    this.transport?.close();
  }
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  return config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM, log)
    : new FileMailer(path.join(config.dataDir, 'mail'), config.MAIL_FROM, log);
}
