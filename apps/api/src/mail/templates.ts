/**
 * Outgoing mails, each with a plain-text and an HTML part in the product's look (SPEC.md §1
 * dark theme: background #303030, paper #424242, primary #d83e86, secondary #ffc947).
 * Mail clients ignore stylesheets, so the HTML uses tables and inline styles only.
 */
import { UI } from '@bountyhunt/shared/api';
import type { MailMessage } from './mailer';

const C = {
  background: '#303030',
  paper: '#424242',
  primary: '#d83e86',
  secondary: '#ffc947',
  text: '#ffffff',
  muted: '#bdbdbd',
};

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface Layout {
  preheader: string;
  heading: string;
  paragraphs: string[];
  button?: { label: string; href: string };
  footnote?: string;
}

/** The logo of apps/web/public/logo.svg drawn with nested cells (SVG is blocked by most clients). */
const LOGO = `<table role="presentation" cellpadding="0" cellspacing="0" style="display:inline-table;vertical-align:middle"><tr><td style="width:28px;height:28px;border-radius:14px;background:${C.primary};text-align:center;vertical-align:middle"><div style="display:inline-block;width:18px;height:18px;border-radius:9px;background:${C.background};text-align:center;line-height:18px"><div style="display:inline-block;width:8px;height:8px;border-radius:4px;background:${C.secondary};vertical-align:middle"></div></div></td></tr></table>`;

function renderHtml(l: Layout): string {
  const body = l.paragraphs
    .map(
      (p) =>
        `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:${C.text}">${escapeHtml(p)}</p>`,
    )
    .join('');
  const button = l.button
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:4px;background:${C.primary}"><a href="${escapeHtml(l.button.href)}" style="display:inline-block;padding:12px 24px;font-size:15px;font-weight:600;letter-spacing:0.4px;text-transform:uppercase;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(l.button.label)}</a></td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:${C.muted}">If the button does not work, paste this address into your browser:<br><a href="${escapeHtml(l.button.href)}" style="color:${C.secondary};word-break:break-all">${escapeHtml(l.button.href)}</a></p>`
    : '';
  const footnote = l.footnote
    ? `<p style="margin:0;font-size:13px;line-height:20px;color:${C.muted}">${escapeHtml(l.footnote)}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="dark"><title>${escapeHtml(l.heading)}</title></head>
<body style="margin:0;padding:0;background:${C.background};font-family:Roboto,Helvetica,Arial,sans-serif">
<div style="display:none;max-height:0;overflow:hidden;color:${C.background}">${escapeHtml(l.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.background}"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">
<tr><td style="padding:0 0 20px">${LOGO}<span style="margin-left:10px;font-size:22px;font-weight:700;vertical-align:middle;color:${C.text}">Bounty<span style="color:${C.primary}">Hunt</span></span></td></tr>
<tr><td style="background:${C.paper};border-radius:8px;padding:32px 28px">
<h1 style="margin:0 0 20px;font-size:22px;line-height:30px;font-weight:600;color:${C.text}">${escapeHtml(l.heading)}</h1>
${body}${button}${footnote}
</td></tr>
<tr><td style="padding:20px 4px;font-size:12px;line-height:18px;color:${C.muted}">Questions? Write to <a href="mailto:${UI.supportEmail}" style="color:${C.secondary}">${UI.supportEmail}</a>.<br>&copy; 2023 BountyHunt. All rights reserved.</td></tr>
</table></td></tr></table></body></html>`;
}

function renderText(l: Layout): string {
  const lines = [`BountyHunt`, '', l.heading, '', ...l.paragraphs.flatMap((p) => [p, ''])];
  if (l.button) lines.push(`${l.button.label}: ${l.button.href}`, '');
  if (l.footnote) lines.push(l.footnote, '');
  lines.push('--', `Questions? Write to ${UI.supportEmail}.`, '(c) 2023 BountyHunt');
  return lines.join('\n');
}

function compose(to: string, subject: string, layout: Layout): MailMessage {
  return { to, subject, text: renderText(layout), html: renderHtml(layout) };
}

/** POST /email/password/{email}: the link to /reset/{code}, valid for one hour and one use. */
export function passwordResetMail(to: string, link: string): MailMessage {
  return compose(to, 'Reset your BountyHunt password', {
    preheader: 'Use this link within an hour to choose a new password.',
    heading: 'Change your password',
    paragraphs: [
      'Someone (hopefully you) asked to reset the password of the BountyHunt account for this e-mail address.',
      'Choose a new password with the button below. The link works once and expires in one hour; afterwards you are signed out everywhere else.',
    ],
    button: { label: 'Change Your Password', href: link },
    footnote: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  });
}

/** Sent to the old address when the e-mail of an account changes. */
export function emailChangedMail(to: string, newEmail: string): MailMessage {
  return compose(to, 'Your BountyHunt e-mail address was changed', {
    preheader: 'Your sign-in e-mail address changed.',
    heading: 'Your e-mail address was changed',
    paragraphs: [
      `The e-mail address of your BountyHunt account is now ${newEmail}. Sign in with the new address from now on.`,
    ],
    footnote: `If you did not make this change, contact ${UI.supportEmail} at once.`,
  });
}

/** Sent when the password changes (by the settings form or a reset link). */
export function passwordChangedMail(to: string): MailMessage {
  return compose(to, 'Your BountyHunt password was changed', {
    preheader: 'Your password changed; other sessions were signed out.',
    heading: 'Your password was changed',
    paragraphs: [
      'The password of your BountyHunt account was just changed, and every other session was signed out.',
    ],
    footnote: `If you did not make this change, reset your password and contact ${UI.supportEmail}.`,
  });
}

/** The identity review approved the user's documents. */
export function identityApprovedMail(to: string, link: string): MailMessage {
  return compose(to, 'Your identity is verified', {
    preheader: 'Your identity documents were approved.',
    heading: 'Your identity is verified',
    paragraphs: [
      'Thank you for your patience. Our review team has checked your ID photo and selfie, and your identity is now verified.',
      'Payouts can be sent to you once your tax and banking details are complete.',
    ],
    button: { label: 'View Your Account', href: link },
    footnote:
      'Your document photos are deleted 30 days after this decision; the decision itself is kept.',
  });
}

/** The identity review rejected the documents: the reason and the way to submit again. */
export function identityRejectedMail(to: string, reason: string, link: string): MailMessage {
  return compose(to, 'We could not verify your identity', {
    preheader: 'Your identity documents need another look. Please submit new photos.',
    heading: 'We could not verify your identity',
    paragraphs: [
      'Our review team looked at your ID photo and selfie but could not verify your identity.',
      `Reason: ${reason}`,
      'Please upload new photos on the identity page; we review every new submission.',
    ],
    button: { label: 'Submit New Photos', href: link },
    footnote: `Questions about this decision? Write to ${UI.supportEmail}.`,
  });
}

/** A payout went out (issue 18): the amount and the account it was sent to. */
export function payoutSentMail(
  to: string,
  amount: string,
  lastFour: string,
  link: string,
): MailMessage {
  return compose(to, `Your payout of ${amount} is on its way`, {
    preheader: `We sent ${amount} to your bank account ending in ${lastFour}.`,
    heading: 'Your payout is on its way',
    paragraphs: [
      `We sent ${amount} by direct deposit to your account ending in ${lastFour}.`,
      'Deposits usually arrive within one to two business days.',
    ],
    button: { label: 'View Your Earnings', href: link },
    footnote: `Questions about a payout? Write to ${UI.supportEmail}.`,
  });
}

/** The bank sent a payout back: the money is available again once the details are fixed. */
export function payoutReturnedMail(
  to: string,
  amount: string,
  reason: string,
  link: string,
): MailMessage {
  return compose(to, 'Your payout was returned by your bank', {
    preheader: `Your bank returned a payout of ${amount}. Please check your bank details.`,
    heading: 'Your payout was returned',
    paragraphs: [
      `Your bank returned our direct deposit of ${amount}. The reason it gave: ${reason}.`,
      'The money is back in your available balance. Please check your bank details; we will send it again in the next weekly payout.',
    ],
    button: { label: 'Update Bank Details', href: link },
    footnote: `Questions about a payout? Write to ${UI.supportEmail}.`,
  });
}

/** A notification (issue 19) that has no mail of its own: its title, text and a link. */
export function noticeMail(
  to: string,
  n: { subject: string; heading: string; text: string; link: string | null; linkLabel: string },
): MailMessage {
  return compose(to, n.subject, {
    preheader: n.text,
    heading: n.heading,
    paragraphs: [n.text],
    ...(n.link ? { button: { label: n.linkLabel, href: n.link } } : {}),
  });
}

/**
 * Adds the one-click unsubscribe (RFC 8058: List-Unsubscribe + List-Unsubscribe-Post) and a
 * line saying how to stop these mails to a notification mail.
 */
export function withUnsubscribe(message: MailMessage, url: string, what: string): MailMessage {
  const line = `You get this mail because of your notification settings (${what}). Unsubscribe: ${url}`;
  const html = `<p style="margin:0;padding:8px 4px 24px;font-size:12px;line-height:18px;color:${C.muted};text-align:center">You get this mail because of your notification settings (${escapeHtml(what)}). <a href="${escapeHtml(url)}" style="color:${C.secondary}">Unsubscribe</a></p>`;
  return {
    ...message,
    text: `${message.text}\n\n${line}\n`,
    html: message.html.replace(/<\/body>/, `${html}</body>`),
    headers: {
      ...message.headers,
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
