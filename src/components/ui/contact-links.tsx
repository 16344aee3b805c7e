/**
 * Reaching a client from an admin screen: the e-mail address as a mailto: link (with a subject, so a
 * reply is recognisable in the client's inbox) and the phone number as a tel: link, so a click starts
 * the mail program or a call. The visible text is always the address or number itself.
 */
import { Mail, Phone } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A tel: URI (RFC 3966) for a number as a visitor typed it ('(619) 555-0199 ext. 12'), or null when
 * it has too few digits to dial. Ten-digit numbers are North American (the firm is in San Diego).
 */
export function telHref(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const extMatch = /(?:ext\.?|x)\s*(\d+)\s*$/i.exec(phone);
  const main = extMatch ? phone.slice(0, extMatch.index) : phone;
  const international = main.trim().startsWith('+');
  const digits = main.replace(/\D/g, '');
  if (digits.length < 7) return null;
  const number = international ? `+${digits}` : digits.length === 10 ? `+1${digits}` : digits.length === 11 && digits.startsWith('1') ? `+${digits}` : digits;
  return `tel:${number}${extMatch ? `;ext=${extMatch[1]}` : ''}`;
}

/** A mailto: URI with an optional subject, encoded so any address or subject text is safe. */
export function mailtoHref(email: string, subject?: string): string {
  const query = subject ? `?subject=${encodeURIComponent(subject)}` : '';
  return `mailto:${encodeURIComponent(email).replace(/%40/g, '@')}${query}`;
}

const linkClass =
  'inline-flex min-h-6 items-center gap-1.5 break-all text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring rounded-sm';

export function EmailLink({ email, subject, children }: { email: string; subject?: string; children?: ReactNode }) {
  return (
    <a href={mailtoHref(email, subject)} className={linkClass}>
      <Mail aria-hidden="true" className="size-4 shrink-0" />
      {children ?? email}
    </a>
  );
}

/** The number as a link when it can be dialled, else as plain text. */
export function PhoneLink({ phone, children }: { phone: string; children?: ReactNode }) {
  const href = telHref(phone);
  if (!href) return <span>{phone}</span>;
  return (
    <a href={href} className={linkClass}>
      <Phone aria-hidden="true" className="size-4 shrink-0" />
      {children ?? phone}
    </a>
  );
}
