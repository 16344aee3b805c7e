import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { appointmentInput } from '../../shared/schemas/appointments.ts';
import {
  bookedConsultation,
  bookingFailure,
  bookingPracticeAreaOptions,
  bookingOutcomes,
  canContinue,
  consultationTypeOptions,
  emptyBookingForm,
  emptyChoice,
  scheduledDateOf,
  toAppointmentPayload,
} from './booking-form.ts';

const details = {
  firstName: ' Ann ',
  lastName: 'Lee',
  email: 'ann@example.com',
  phone: '',
  practiceArea: 'custody',
  notes: '',
};

const messages = (values: object) => {
  const result = appointmentInput.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('step 1 (SPEC §5: Continue waits for type, date and time; SPEC §9 types with minutes)', () => {
  it('lists the five consultation types with their minutes', () => {
    expect(consultationTypeOptions.map((t) => t.label)).toEqual([
      'Initial Consultation (30 min)',
      'Follow-up Meeting (30 min)',
      'Estate Planning Review (60 min)',
      'Family Law Consultation (45 min)',
      'Divorce Consultation (60 min)',
    ]);
  });

  it('continues only with all three chosen', () => {
    expect(canContinue(emptyChoice())).toBe(false);
    expect(canContinue({ consultationType: 'initial', date: '2026-06-08', time: null })).toBe(false);
    expect(canContinue({ consultationType: null, date: '2026-06-08', time: '09:00' })).toBe(false);
    expect(canContinue({ consultationType: 'initial', date: '2026-06-08', time: '09:00' })).toBe(true);
  });

  it("sends the firm time's UTC instant, across daylight-saving time, and nothing while date or time is missing", () => {
    expect(scheduledDateOf({ consultationType: 'initial', date: '2026-06-08', time: '09:00' })).toBe('2026-06-08T16:00:00.000Z');
    expect(scheduledDateOf({ consultationType: 'initial', date: '2026-12-07', time: '13:30' })).toBe('2026-12-07T21:30:00.000Z');
    // 2027-03-15 is the Monday after the spring-forward Sunday: 9:00 AM is still 9:00 AM in San Diego.
    expect(scheduledDateOf({ consultationType: 'initial', date: '2027-03-12', time: '09:00' })).toBe('2027-03-12T17:00:00.000Z');
    expect(scheduledDateOf({ consultationType: 'initial', date: '2027-03-15', time: '09:00' })).toBe('2027-03-15T16:00:00.000Z');
    expect(scheduledDateOf({ consultationType: 'initial', date: '2026-06-08', time: null })).toBe('');
    expect(scheduledDateOf(emptyChoice())).toBe('');
  });
});

describe('step 2 (SPEC §5 Booking form, validated by the API schema)', () => {
  it('offers the six booking practice areas', () => {
    expect(bookingPracticeAreaOptions).toEqual([
      { value: 'family-law', label: 'Family Law' },
      { value: 'estate-planning', label: 'Estate Planning' },
      { value: 'trust-administration', label: 'Trust Administration' },
      { value: 'divorce', label: 'Divorce' },
      { value: 'custody', label: 'Custody' },
      { value: 'other', label: 'Other' },
    ]);
  });

  it('asks for every required field, and for the date when step 1 left none', () => {
    expect(messages(emptyBookingForm())).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Please enter a valid email address',
      practiceArea: 'Please choose a practice area',
      consultationType: 'Please choose a consultation type',
      scheduledDate: 'Date and time is required',
    });
  });

  it('builds the request: trimmed, blanks null, duration from the type, scheduled, no reminder', () => {
    const values = appointmentInput.parse({ ...details, consultationType: 'divorce', scheduledDate: '2026-06-08T16:00:00.000Z' });
    expect(toAppointmentPayload(values)).toEqual({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
      phone: null,
      consultationType: 'divorce',
      practiceArea: 'custody',
      notes: null,
      scheduledDate: '2026-06-08T16:00:00.000Z',
      duration: 60,
      status: 'scheduled',
      reminderSent: false,
    });
  });
});

describe('the outcome (SPEC §8 booking messages, said in the dialog)', () => {
  it('has the exact SPEC wording', () => {
    expect(bookingOutcomes.success).toEqual({ title: 'Consultation Scheduled!', description: "We'll send you a confirmation email with all the details." });
    expect(bookingOutcomes.failure).toEqual({
      title: 'Booking Failed',
      description: 'Please try again or call us directly at the office phone number.',
    });
    expect(bookingOutcomes.missing).toMatchObject({ title: 'Missing Information', description: 'Please select a date and time for your consultation.' });
  });

  it('tells a lost time from refused fields and anything else', () => {
    const taken = 'That time was just booked. Please choose another.';
    expect(bookingFailure(new ApiError(409, JSON.stringify({ error: taken, requestId: 'r' })))).toEqual({ kind: 'time', message: taken });
    expect(bookingFailure(new ApiError(409, 'Conflict'))).toEqual({ kind: 'time', message: taken });
    const past = 'That time has already passed. Please choose a later time.';
    expect(bookingFailure(new ApiError(400, JSON.stringify({ error: 'Invalid', fields: { scheduledDate: past } })))).toEqual({ kind: 'time', message: past });
    expect(
      bookingFailure(new ApiError(400, JSON.stringify({ error: 'Invalid', fields: { email: 'Please enter a valid email address', other: 'x' } }))),
    ).toEqual({
      kind: 'fields',
      fields: [['email', 'Please enter a valid email address']],
    });
    expect(bookingFailure(new ApiError(500, '{"error":"Internal error"}'))).toEqual({ kind: 'other' });
    expect(bookingFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'other' });
  });

  it("confirms what the server stored, in the firm's words and zone, with its reference and calendar links", () => {
    const booked = {
      id: '3f2a9c1b-0d4e-4f5a-8b6c-7d8e9f0a1b2c',
      consultationType: 'family-law',
      scheduledDate: '2026-12-07T21:30:00.000Z',
      duration: 45,
      manageToken: '3f2a9c1b-0d4e-4f5a-8b6c-7d8e9f0a1b2c.signature',
    };
    const person = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' };
    expect(bookedConsultation(booked, person, 'America/Los_Angeles')).toEqual({
      reference: '3F2A-9C1B',
      type: 'Family Law Consultation',
      date: 'Monday, December 7, 2026',
      time: '1:30 PM Pacific Time (San Diego)',
      localTime: null,
      duration: '45 minutes',
      name: 'Ann Lee',
      email: 'ann@example.com',
      calendarLinks: { google: expect.stringContaining('dates=20261207T213000Z%2F20261207T221500Z'), outlook: expect.stringContaining('outlook.live.com') },
      // The booking's own page; the token in the fragment, which no server sees.
      manageHref: '/manage-booking#3f2a9c1b-0d4e-4f5a-8b6c-7d8e9f0a1b2c.signature',
    });
    expect(decodeURIComponent(bookedConsultation(booked, person).calendarLinks.google)).toContain(
      'manage-booking#3f2a9c1b-0d4e-4f5a-8b6c-7d8e9f0a1b2c.signature',
    );
    // A visitor in Tokyo reads it in their own time too.
    expect(bookedConsultation(booked, person, 'Asia/Tokyo').localTime).toBe('6:30 AM Tuesday, December 8 in your time zone (Asia/Tokyo)');
  });
});
