import { describe, expect, it } from 'vitest';
import { contactInput } from '../../shared/schemas/contact.ts';
import { CONSENT_REQUIRED, contactFormSchema } from './contact-form.schema.ts';
import { emptyContactForm, fieldErrorsFrom, practiceAreaOptions, serviceFromQuery, toContactPayload } from './contact-form.ts';

const filled = {
  firstName: ' Ann ',
  lastName: 'Lee',
  email: 'ann@example.com',
  phone: '',
  practiceArea: 'estate-planning',
  message: 'I would like to discuss a living trust.',
  consent: true,
};

const messages = (values: object) => {
  const result = contactFormSchema.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('contactFormSchema (SPEC §5 Contact form)', () => {
  it('asks for every required field and the consent', () => {
    expect(messages(emptyContactForm())).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Please enter a valid email address',
      practiceArea: 'Please choose a practice area',
      message: 'Message is required',
      consent: CONSENT_REQUIRED,
    });
  });

  it('refuses a form without consent, and a bad phone', () => {
    expect(messages({ ...filled, consent: false })).toEqual({ consent: CONSENT_REQUIRED });
    expect(messages({ ...filled, phone: 'call me' })).toEqual({ phone: 'Please enter a valid phone number' });
  });

  it('gives the API payload: trimmed, phone null when blank, no consent', () => {
    const payload = toContactPayload(contactFormSchema.parse(filled));
    expect(payload).toEqual({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
      phone: null,
      practiceArea: 'estate-planning',
      message: 'I would like to discuss a living trust.',
    });
    expect(contactInput.safeParse(payload).success).toBe(true);
  });
});

describe('serviceFromQuery', () => {
  it('accepts the contact practice areas only', () => {
    expect(serviceFromQuery('?service=estate-planning')).toBe('estate-planning');
    expect(serviceFromQuery('?service=family-law&x=1')).toBe('family-law');
    expect(serviceFromQuery('?service=divorce')).toBeNull(); // a booking area, not a contact one
    expect(serviceFromQuery('?service=%3Cscript%3E')).toBeNull();
    expect(serviceFromQuery('')).toBeNull();
  });

  it('preselects the practice area of an empty form', () => {
    expect(emptyContactForm('trust-administration').practiceArea).toBe('trust-administration');
    expect(emptyContactForm().practiceArea).toBe('');
  });
});

describe('practiceAreaOptions and fieldErrorsFrom', () => {
  it('lists the SPEC §9 contact areas with readable labels', () => {
    expect(practiceAreaOptions).toEqual([
      { value: 'family-law', label: 'Family Law' },
      { value: 'estate-planning', label: 'Estate Planning' },
      { value: 'trust-administration', label: 'Trust Administration' },
      { value: 'other', label: 'Other' },
    ]);
  });

  it('keeps only the server messages for fields the form has', () => {
    expect(fieldErrorsFrom({ email: 'Please enter a valid email address', id: 'x' })).toEqual([['email', 'Please enter a valid email address']]);
    expect(fieldErrorsFrom(undefined)).toEqual([]);
  });
});
