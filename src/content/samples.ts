/**
 * Built-in content the public pages fall back on (SPEC §7): sample testimonials when GET
 * /api/testimonials has none, sample articles when GET /api/blog-posts has none, and the author
 * bios shown under every article (keyed by the author's name, SPEC §9 Blog authors).
 *
 * Written for Cal. RPC 7.1: testimonials describe the client's experience, never a result; nothing
 * guarantees or predicts an outcome or claims a certified specialisation. Articles are general
 * information and end with a not-legal-advice note.
 */
import { firm } from '../config/firm.ts';
import type { PublicBlogPost, PublicTestimonial } from '../shared/public-api.ts';

const [estatePlanningAttorney, familyLawAttorney] = firm.attorneys;

export const sampleTestimonials: readonly PublicTestimonial[] = [
  {
    id: 'sample-testimonial-1',
    clientName: 'Laura B.',
    rating: 5,
    content:
      'I came in worried and confused about my divorce. Every step was explained in plain language, my questions were answered quickly, and I always knew what would happen next.',
    practiceArea: 'divorce',
    createdAt: '2026-01-05T17:00:00.000Z',
  },
  {
    id: 'sample-testimonial-2',
    clientName: 'James & Carol T.',
    rating: 5,
    content:
      'Setting up our living trust was far easier than we expected. They walked us through funding the trust and made sure we understood every document before we signed.',
    practiceArea: 'estate-planning',
    createdAt: '2026-01-12T17:00:00.000Z',
  },
  {
    id: 'sample-testimonial-3',
    clientName: 'Daniel W.',
    rating: 5,
    content:
      'As a new successor trustee I did not know where to start. They gave me a clear checklist and kept me informed throughout the administration of my father’s trust.',
    practiceArea: 'trust-administration',
    createdAt: '2026-01-19T17:00:00.000Z',
  },
];

const notLegalAdvice = `<p><em>This article is general information about California law, not legal advice, and reading it does not create an attorney-client relationship. If you would like to talk about your own situation, we invite you to schedule a consultation with ${firm.name}.</em></p>`;

/** The samples use their title, excerpt and the site's card for search and sharing. */
const noSeoFields = { seoTitle: null, seoDescription: null, featuredImageUrl: null, featuredImageAlt: null };

/** Newest first, as the API lists posts. */
export const sampleArticles: readonly PublicBlogPost[] = [
  {
    id: 'sample-article-3',
    title: 'How Long Does Probate Take in California, and Why?',
    slug: 'how-long-does-probate-take-in-california',
    excerpt: 'California probate often takes a year or more. Here are the stages that set the pace, from the first petition to the final distribution.',
    category: 'probate',
    author: firm.name,
    publishedAt: '2026-02-03T17:00:00.000Z',
    ...noSeoFields,
    createdAt: '2026-02-03T17:00:00.000Z',
    updatedAt: '2026-02-03T17:00:00.000Z',
    content: `<p>Families are often surprised by how long probate takes. As general information, a straightforward California probate commonly takes 12 to 18 months, and contested or complex estates can take longer. Every estate is different.</p>
<h2>The main stages</h2>
<ol>
<li><strong>Petition and hearing.</strong> A petition is filed with the superior court and a hearing is set, usually several weeks out, after notice is published and mailed.</li>
<li><strong>Appointment and inventory.</strong> Once appointed, the personal representative gathers assets and files an inventory and appraisal.</li>
<li><strong>Creditor period.</strong> Creditors have at least four months after letters are issued to file claims.</li>
<li><strong>Accounting and distribution.</strong> The representative asks the court to approve the accounting, fees and final distribution.</li>
</ol>
<h2>Can probate be avoided?</h2>
<p>Assets held in a funded living trust, accounts with named beneficiaries, and some jointly owned property generally pass outside of probate. Smaller estates may qualify for simplified procedures.</p>
${notLegalAdvice}`,
  },
  {
    id: 'sample-article-2',
    title: 'Five Questions to Ask Yourself Before Filing for Divorce in California',
    slug: 'five-questions-before-filing-for-divorce-in-california',
    excerpt:
      'Filing for divorce starts a legal process with deadlines and disclosure duties. These five questions can help you prepare before the first papers are filed.',
    category: 'divorce',
    author: familyLawAttorney.name,
    publishedAt: '2026-01-27T17:00:00.000Z',
    ...noSeoFields,
    createdAt: '2026-01-27T17:00:00.000Z',
    updatedAt: '2026-01-27T17:00:00.000Z',
    content: `<p>Deciding to end a marriage is personal; the process that follows is legal, with rules and timelines of its own. Thinking through a few questions in advance can make that process more predictable.</p>
<h2>1. Do you meet the residency requirement?</h2>
<p>To file for divorce in California, one spouse generally must have lived in the state for six months and in the county of filing for three months.</p>
<h2>2. What do you own and owe?</h2>
<p>Both spouses must exchange financial disclosures. Gathering statements for accounts, debts, retirement plans and property early saves time later.</p>
<h2>3. What arrangements do your children need?</h2>
<p>If you have children, think about schedules, schooling and how decisions will be made. Courts decide custody based on the best interest of the child.</p>
<h2>4. How will you cover expenses during the case?</h2>
<p>Temporary orders for support and the use of property may be available while the case is pending.</p>
<h2>5. Is an agreement possible?</h2>
<p>Many couples resolve some or all issues by agreement, through negotiation or mediation. California also has a six-month waiting period before a divorce can become final.</p>
${notLegalAdvice}`,
  },
  {
    id: 'sample-article-1',
    title: 'Will or Living Trust? Choosing the Right Foundation for a California Estate Plan',
    slug: 'will-or-living-trust-choosing-the-right-foundation',
    excerpt:
      'Both a will and a revocable living trust say who receives your property, but they work very differently when it is time to carry out your wishes. Here is how to think about the choice.',
    category: 'estate-planning',
    author: estatePlanningAttorney.name,
    publishedAt: '2026-01-20T17:00:00.000Z',
    ...noSeoFields,
    createdAt: '2026-01-20T17:00:00.000Z',
    updatedAt: '2026-01-20T17:00:00.000Z',
    content: `<p>A will and a revocable living trust can both name the people who inherit your property. The difference lies in what happens afterward: a will generally has to pass through probate, a court-supervised process, while assets held in a properly funded trust can usually be managed and distributed by your successor trustee without court involvement.</p>
<h2>When a will may be enough</h2>
<p>California offers simplified procedures for smaller estates, and some assets pass outside of probate on their own, such as accounts with a named beneficiary. For a person whose assets fall within those rules, a will together with up-to-date beneficiary designations can be a sensible plan.</p>
<h2>When a trust is worth considering</h2>
<ul>
<li><strong>You own real estate.</strong> With San Diego County home values, a house alone can take an estate beyond the small-estate limits.</li>
<li><strong>You value privacy.</strong> A probate file is a public court record; a trust is usually administered privately.</li>
<li><strong>You want a plan for incapacity.</strong> A successor trustee can step in to manage trust assets without a conservatorship.</li>
</ul>
<p>A trust only controls the assets titled in its name, so funding it is as important as signing it.</p>
${notLegalAdvice}`,
  },
];

/** Author bios shown under each article (SPEC §2 /blog/{slug}), keyed by the author's name. */
export const authorBios: Readonly<Record<string, string>> = {
  [firm.name]: `${firm.name} is a San Diego law firm focused on family law, estate planning and trust administration. Our attorneys write these articles to help families understand California law and the choices in front of them. We serve clients throughout San Diego County from our downtown office.`,
  [estatePlanningAttorney.name]: `${estatePlanningAttorney.name} is the founding partner of ${firm.name}, where she focuses her practice on estate planning and trust administration. She helps families put wills, living trusts and health care directives in place, and guides successor trustees through administering a trust. She is known for explaining complex documents in plain language.`,
  [familyLawAttorney.name]: `${familyLawAttorney.name} is a partner at ${firm.name} who focuses his practice on family law, including divorce, child custody and support. He works with clients to understand their options, from negotiated agreements to court hearings, and keeps them informed at every step.`,
};

export function authorBio(author: string): string {
  return authorBios[author] ?? authorBios[firm.name]!;
}
