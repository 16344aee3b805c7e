/**
 * SPEC §2 practice-area pages: /practice-areas (three cards) and the Family Law and Estate Planning
 * pages (services, five-step process, and for estate planning the probate versus living trust
 * comparison). General information about California law, not legal advice; no promised results
 * (Cal. RPC 7.1). The probate figures (4-7% of the estate, 12-18 months) are SPEC §1's claims.
 */

export interface Service {
  name: string;
  description: string;
}

export interface ProcessStep {
  title: string;
  description: string;
}

export interface PracticeAreaCard {
  /** Also the card's id, so /practice-areas#trust-administration lands on it. */
  key: 'family-law' | 'estate-planning' | 'trust-administration';
  title: string;
  summary: string;
  highlights: readonly string[];
  /** Where the card's link goes, and what it says (unique link text). */
  href: string;
  linkLabel: string;
}

export const practiceAreaCards: readonly PracticeAreaCard[] = [
  {
    key: 'family-law',
    title: 'Family Law',
    summary: 'Divorce, custody and support matters handled with care for your children and a clear view of your finances, in negotiation, mediation or court.',
    highlights: ['Divorce and legal separation', 'Child custody and parenting plans', 'Child and spousal support', 'Prenuptial agreements'],
    href: '/practice-areas/family-law',
    linkLabel: 'Explore Family Law',
  },
  {
    key: 'estate-planning',
    title: 'Estate Planning',
    summary: 'Living trusts, wills and health care directives that say who decides for you and who inherits, with a plan to keep your estate out of probate.',
    highlights: ['Revocable living trusts', 'Wills and guardianship nominations', 'Powers of attorney', 'Advance health care directives'],
    href: '/practice-areas/estate-planning',
    linkLabel: 'Explore Estate Planning',
  },
  {
    key: 'trust-administration',
    title: 'Trust Administration',
    summary:
      'Step-by-step guidance for successor trustees after a death or incapacity: notices, inventories, taxes, accountings and distributions to beneficiaries.',
    highlights: ['Trustee duties and notices', 'Asset inventory and valuation', 'Accountings to beneficiaries', 'Final distributions'],
    href: '/contact?service=trust-administration',
    linkLabel: 'Ask about Trust Administration',
  },
];

export const familyLawServices: readonly Service[] = [
  {
    name: 'Divorce and legal separation',
    description: 'Dissolution of marriage or domestic partnership, and legal separation, from the first petition to the final judgment.',
  },
  {
    name: 'Child custody and visitation',
    description: 'Legal and physical custody, parenting plans and holiday schedules that put your children’s best interests first.',
  },
  {
    name: 'Child support',
    description: 'Support calculated under California’s statewide guideline, including add-ons for child care and health care.',
  },
  {
    name: 'Spousal support',
    description: 'Temporary and long-term support requests and responses, and modifications when income or needs change.',
  },
  {
    name: 'Property and debt division',
    description: 'Identifying community and separate property, valuing homes, businesses and retirement accounts, and dividing debts.',
  },
  {
    name: 'Prenuptial and postnuptial agreements',
    description: 'Agreements drafted or reviewed so that both spouses understand their rights before they sign.',
  },
  {
    name: 'Domestic violence restraining orders',
    description: 'Requests for protective orders and responses to them, with attention to your safety and your children’s.',
  },
  {
    name: 'Modifications and enforcement',
    description: 'Changing custody or support orders after a move, a new job or other change, and enforcing orders that are not followed.',
  },
];

export const familyLawProcess: readonly ProcessStep[] = [
  {
    title: 'Confidential consultation',
    description: 'We listen to your situation, explain how California law applies to it and outline your options, including mediation.',
  },
  {
    title: 'Strategy and planning',
    description: 'Together we set priorities for your children, your home and your finances, and agree on a plan and a budget.',
  },
  {
    title: 'Filing and financial disclosure',
    description: 'We prepare and file the petition or response and the disclosures California requires of both spouses.',
  },
  {
    title: 'Negotiation, mediation or court',
    description: 'We work toward a fair agreement and prepare thoroughly for hearings in San Diego County Superior Court when one is needed.',
  },
  {
    title: 'Judgment and next steps',
    description: 'We finalize the judgment, help carry out its terms, such as dividing accounts, and stay available if circumstances change.',
  },
];

export const estatePlanningServices: readonly Service[] = [
  {
    name: 'Revocable living trusts',
    description: 'A trust that holds your assets during your life and passes them to your beneficiaries without probate.',
  },
  {
    name: 'Wills and pour-over wills',
    description: 'A will that names guardians for minor children and sends any assets left outside the trust into it.',
  },
  {
    name: 'Durable powers of attorney',
    description: 'A trusted person you choose to manage your finances if you cannot, without a court conservatorship.',
  },
  {
    name: 'Advance health care directives',
    description: 'Your medical wishes in writing, and the person who may speak for you with doctors and hospitals.',
  },
  {
    name: 'Trust funding',
    description: 'Deeds, account retitling and beneficiary designations, so that your assets are actually held by your trust.',
  },
  {
    name: 'Special needs trusts',
    description: 'Providing for a loved one with a disability while protecting eligibility for public benefits.',
  },
  {
    name: 'Trust administration and probate',
    description: 'Guidance for trustees and executors after a death: notices, inventories, taxes and distributions.',
  },
  {
    name: 'Plan reviews and updates',
    description: 'Updates after a marriage, divorce, birth, move or sale of a home, or a change in the law.',
  },
];

export const estatePlanningProcess: readonly ProcessStep[] = [
  {
    title: 'Consultation',
    description: 'We talk about your family, your assets and what you want to happen, and answer your questions about trusts and probate.',
  },
  {
    title: 'Plan design',
    description: 'We recommend the documents that fit your goals and explain the choices, such as trustees, guardians and timing of gifts.',
  },
  {
    title: 'Drafting and review',
    description: 'We prepare the documents and walk through each one with you in plain language, revising until they say what you intend.',
  },
  {
    title: 'Signing',
    description: 'You sign with the witnesses and notarization California law requires, and leave with an organized copy of your plan.',
  },
  {
    title: 'Funding and regular reviews',
    description: 'We help transfer your home and accounts into the trust, and recommend reviewing the plan every few years or after major life events.',
  },
];

export interface ComparisonRow {
  aspect: string;
  probate: string;
  livingTrust: string;
}

/** Probate (a will, or no plan) versus a funded revocable living trust, in California. */
export const probateVersusTrust: readonly ComparisonRow[] = [
  {
    aspect: 'Court involvement',
    probate: 'Supervised by the Superior Court, with hearings and court filings.',
    livingTrust: 'Usually none: your successor trustee settles the trust privately.',
  },
  {
    aspect: 'Typical timeline',
    probate: 'Often 12-18 months, sometimes longer.',
    livingTrust: 'Often a matter of months, depending on the assets.',
  },
  {
    aspect: 'Typical cost',
    probate: 'Statutory attorney and executor fees plus court costs, often 4-7% of the estate.',
    livingTrust: 'A one-time cost to prepare and fund the trust, plus trustee administration costs.',
  },
  {
    aspect: 'Privacy',
    probate: 'Public: the will, inventory and distributions become part of the court record.',
    livingTrust: 'Private: the trust terms and assets stay out of the public record.',
  },
  {
    aspect: 'If you become incapacitated',
    probate: 'A will does not help; family may need a court conservatorship.',
    livingTrust: 'Your successor trustee can step in to manage trust assets.',
  },
  {
    aspect: 'Property in other states',
    probate: 'May need a separate probate in each state.',
    livingTrust: 'Property held in the trust avoids these extra proceedings.',
  },
];
