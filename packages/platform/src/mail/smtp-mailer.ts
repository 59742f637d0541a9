// The product's one mail transport (fleet's deadline reminders, the dispatcher's webhook health notices).
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** SMTP through nodemailer, configured by `SMTP_URL` (e.g. `smtp://user:pass@mail.example:587`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    this.transport.close();
  }
}
