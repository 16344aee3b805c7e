/**
 * The product's fixed lists (SPEC §3, §9). Browser-safe: islands, the API and the seed all read them
 * from here, so a list changes in one place.
 */

/** SPEC §9 Consultation types (value, label, minutes). The duration is set from the chosen type. */
export const consultationTypes = [
  { value: 'initial', label: 'Initial Consultation', minutes: 30 },
  { value: 'follow-up', label: 'Follow-up Meeting', minutes: 30 },
  { value: 'estate-planning', label: 'Estate Planning Review', minutes: 60 },
  { value: 'family-law', label: 'Family Law Consultation', minutes: 45 },
  { value: 'divorce', label: 'Divorce Consultation', minutes: 60 },
] as const;
export type ConsultationType = (typeof consultationTypes)[number]['value'];
export const consultationTypeValues = consultationTypes.map((t) => t.value) as [ConsultationType, ...ConsultationType[]];
export const defaultAppointmentMinutes = 30;

export function consultationTypeLabel(type: string): string {
  return consultationTypes.find((t) => t.value === type)?.label ?? type;
}

export function consultationMinutes(type: string): number {
  return consultationTypes.find((t) => t.value === type)?.minutes ?? defaultAppointmentMinutes;
}

/** SPEC §9 Category lists. */
export const bookingPracticeAreas = ['family-law', 'estate-planning', 'trust-administration', 'divorce', 'custody', 'other'] as const;
export const contactPracticeAreas = ['family-law', 'estate-planning', 'trust-administration', 'other'] as const;
export const testimonialPracticeAreas = ['divorce', 'estate-planning', 'custody', 'trust-administration', 'family-law', 'other'] as const;
export const blogCategories = ['estate-planning', 'family-law', 'divorce', 'probate'] as const;

export const practiceAreaLabels: Record<string, string> = {
  'family-law': 'Family Law',
  'estate-planning': 'Estate Planning',
  'trust-administration': 'Trust Administration',
  divorce: 'Divorce',
  custody: 'Custody',
  probate: 'Probate',
  other: 'Other',
};

/** A practice area's label ('trust-administration' -> 'Trust Administration'); unknown values as they are. */
export const practiceAreaLabel = (value: string): string => practiceAreaLabels[value] ?? value;

/** SPEC §9 Time slots: 13, weekdays only, no 12 PM hour; firm-local wall-clock times (24 h). */
export const timeSlots = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'] as const;
export type TimeSlot = (typeof timeSlots)[number];

/** SPEC §4 Appointment status. */
export const appointmentStatuses = ['scheduled', 'confirmed', 'cancelled', 'completed'] as const;
export type AppointmentStatus = (typeof appointmentStatuses)[number];

/** SPEC §3 integration enums. */
export const calendarProviders = ['calendly', 'google', 'outlook', 'custom'] as const;
export const emailProviders = ['sendgrid', 'smtp'] as const;
export const emailProviderLabels: Record<(typeof emailProviders)[number], string> = { sendgrid: 'SendGrid', smtp: 'SMTP' };
/** A provider's name as people write it (an unknown one as stored). */
export const emailProviderLabel = (provider: string) =>
  Object.hasOwn(emailProviderLabels, provider) ? emailProviderLabels[provider as (typeof emailProviders)[number]] : provider;
export const blogSourceTypes = ['rss', 'api', 'scraper'] as const;

/**
 * The review platforms of SPEC §2's Review Platforms tab (Google, Avvo, Yelp, Facebook,
 * Martindale-Hubbell): where an external review the firm records was written. `filterLabel` is the
 * home page's source filter (SPEC §9 calls Google's 'Google Reviews').
 */
export const reviewPlatforms = [
  { value: 'google', label: 'Google', filterLabel: 'Google Reviews' },
  { value: 'avvo', label: 'Avvo', filterLabel: 'Avvo' },
  { value: 'yelp', label: 'Yelp', filterLabel: 'Yelp' },
  { value: 'facebook', label: 'Facebook', filterLabel: 'Facebook' },
  { value: 'martindale', label: 'Martindale-Hubbell', filterLabel: 'Martindale-Hubbell' },
] as const;
export type ReviewPlatform = (typeof reviewPlatforms)[number]['value'];
export const reviewPlatformValues = reviewPlatforms.map((p) => p.value) as [ReviewPlatform, ...ReviewPlatform[]];
/** A platform's name as people write it (an unknown one as stored). */
export const reviewPlatformLabel = (platform: string) => reviewPlatforms.find((p) => p.value === platform)?.label ?? platform;

/** SPEC §9 / §3 limits. */
export const blogSourceDisplayLimit = { min: 1, max: 10, default: 5 } as const;
export const userRoles = ['admin'] as const;

/** SPEC §3 Default component catalogue (eight keys, all visible by default). */
export const componentCatalogue = [
  { componentKey: 'testimonials', componentName: 'Client Testimonials', description: 'Client testimonials and the external review section on the home page.' },
  { componentKey: 'blog_articles', componentName: 'Blog Articles', description: 'Internal blog articles on the home page and the blog.' },
  { componentKey: 'external_blog_articles', componentName: 'External Blog Articles', description: 'News articles fetched from external blog sources.' },
  { componentKey: 'probate_calculator', componentName: 'Probate Calculator', description: 'The probate versus living trust cost calculator.' },
  { componentKey: 'consultation_booking', componentName: 'Consultation Booking', description: 'Schedule Consultation buttons and the booking modal.' },
  { componentKey: 'contact_form', componentName: 'Contact Form', description: 'The consultation request form on the contact page.' },
  { componentKey: 'newsletter_signup', componentName: 'Newsletter Signup', description: 'The newsletter box on the blog page.' },
  { componentKey: 'practice_areas', componentName: 'Practice Areas', description: 'Practice-area teasers and cards.' },
] as const;
export type ComponentKey = (typeof componentCatalogue)[number]['componentKey'];
