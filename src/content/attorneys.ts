/**
 * SPEC §2 /attorneys: the two attorney profiles (title, bio, education, specialties, rating,
 * recognition). Names, slugs and titles come from src/config/firm.ts; this adds the profile text.
 *
 * Cal. RPC 7.1 wording: statements of fact only, nothing comparative ('best', 'top', 'leading'), no
 * 'specialist' or 'expert' (Rule 7.4 reserves 'certified specialist' for lawyers certified by the
 * State Bar's Board of Legal Specialization, which neither profile claims), no predicted results.
 * Every fact here (schools, years, memberships) is the firm's to confirm before launch.
 */
import { firm } from '../config/firm.ts';

export interface AttorneyProfile {
  slug: string;
  name: string;
  title: string;
  /** Paragraphs. */
  bio: readonly string[];
  education: readonly { degree: string; school: string }[];
  barAdmissions: readonly string[];
  /** SPEC's "specialties": shown as "Practice focus", which makes no certification claim. */
  specialties: readonly string[];
  /** SPEC §1 marketing claim: 4.9/5. */
  rating: { value: number; best: number; source: string };
  recognition: readonly string[];
  yearsInPractice: string;
}

const details: Record<(typeof firm.attorneys)[number]['slug'], Omit<AttorneyProfile, 'slug' | 'name' | 'title'>> = {
  'sarah-mitchell': {
    bio: [
      'Sarah Mitchell founded the firm to give San Diego families a clear, unhurried way to plan for the future. For more than 25 years her practice has centred on revocable living trusts, wills, powers of attorney and advance health care directives, and on guiding successor trustees and executors through the work that follows a death or incapacity.',
      'Clients describe her as patient and practical. She explains each document in plain language, prepares plans that reflect blended families, family businesses and real estate held in more than one state, and makes sure a trust is actually funded so that it can do its job.',
      'Sarah regularly speaks to community groups about avoiding probate in California and about planning for a parent who is beginning to need help with finances.',
    ],
    education: [
      { degree: 'J.D.', school: 'University of San Diego School of Law' },
      { degree: 'B.A., Economics', school: 'University of California, San Diego' },
    ],
    barAdmissions: ['State Bar of California', 'U.S. District Court, Southern District of California'],
    specialties: [
      'Revocable living trusts',
      'Wills and pour-over wills',
      'Trust administration',
      'Probate',
      'Powers of attorney and health care directives',
      'Special needs planning',
    ],
    rating: { value: 4.9, best: 5, source: 'average rating in client reviews' },
    recognition: [
      'Member, Estate Planning, Trust & Probate Law Section, California Lawyers Association',
      'Member, San Diego County Bar Association',
      'Volunteer attorney, senior legal-clinic days in San Diego County',
    ],
    yearsInPractice: '25+ years of practice',
  },
  'michael-torres': {
    bio: [
      'Michael Torres represents San Diego County parents and spouses in divorce, legal separation, child custody and support matters. He knows that a family-law case is often one of the hardest periods in a person’s life, and he works to keep his clients informed and their children’s needs at the centre of every decision.',
      'He resolves many matters through negotiation and mediation, and he prepares every case as if it may need to be presented to a judge. His practice includes property division under California’s community property rules, prenuptial and postnuptial agreements, and requests to modify custody or support orders after circumstances change.',
      'Michael is conversational in Spanish and regularly meets clients in both English and Spanish.',
    ],
    education: [
      { degree: 'J.D.', school: 'California Western School of Law' },
      { degree: 'B.A., Psychology', school: 'San Diego State University' },
    ],
    barAdmissions: ['State Bar of California'],
    specialties: [
      'Divorce and legal separation',
      'Child custody and parenting plans',
      'Child and spousal support',
      'Property division',
      'Prenuptial and postnuptial agreements',
      'Mediation',
    ],
    rating: { value: 4.9, best: 5, source: 'average rating in client reviews' },
    recognition: [
      'Member, Family Law Section, San Diego County Bar Association',
      'Trained mediator, family-law mediation program',
      'Volunteer, family-law self-help workshops in San Diego County',
    ],
    yearsInPractice: '15+ years of practice',
  },
};

export const attorneys: readonly AttorneyProfile[] = firm.attorneys.map((a) => ({ slug: a.slug, name: a.name, title: a.title, ...details[a.slug] }));
