/**
 * Sample content for seeding a fresh database: client testimonials and blog posts.
 *
 * Written with the California attorney-advertising rules in mind (Cal. Rules of Professional
 * Conduct 7.1): testimonials describe the client's experience, never a result, and nothing here
 * guarantees or predicts an outcome or claims a specialisation. Articles are general information
 * about California law and each ends with a not-legal-advice note. Blog HTML uses only h2, h3, p,
 * ul, ol, li, strong, em, a (https only, no target) and blockquote.
 */
import { firm } from '../../src/config/firm.ts';
import { probateFeeSchedule } from '../../src/config/probate.ts';
import { estimateProbate, formatUsd, statutoryFeeSchedule } from '../../src/shared/probate.ts';

export interface SampleTestimonial {
  clientName: string;
  rating: number;
  content: string;
  practiceArea: 'divorce' | 'estate-planning' | 'custody' | 'trust-administration' | 'family-law' | 'other';
  isPublished: boolean;
}

export interface SamplePost {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category: 'estate-planning' | 'family-law' | 'divorce' | 'probate';
  author: string;
  isPublished: boolean;
  publishedAt: Date | null;
}

const estatePlanningAuthor = firm.attorneys[0].name;
const familyLawAuthor = firm.attorneys[1].name;
const firmAuthor = firm.name;

/**
 * What the probate article says of the firm's calculator: the schedule it uses, so the article and the
 * calculator never disagree (issue 18: the article gave the statute's $23,000 for a $1 million
 * estate while the calculator, on SPEC's table, gave $17,500).
 */
function calculatorNote(): string {
  const fee = formatUsd(estimateProbate(1_000_000, 0, probateFeeSchedule).attorneyFees);
  return probateFeeSchedule.id === 'statutory'
    ? `<p>Our <a href="/probate-calculator">probate calculator</a> uses this statutory schedule: for a $1,000,000 estate it gives ${fee} for the attorney and the same for the personal representative.</p>`
    : `<p>Our <a href="/probate-calculator">probate calculator</a> gives a quick comparison with ${probateFeeSchedule.name}, which differs from the statute: for a $1,000,000 estate it gives ${fee} for the attorney, where the statute gives ${formatUsd(estimateProbate(1_000_000, 0, statutoryFeeSchedule).attorneyFees)}.</p>`;
}

export const sampleTestimonials: readonly SampleTestimonial[] = [
  {
    clientName: 'Jennifer M.',
    rating: 5,
    content:
      'Ending a 14-year marriage was the hardest thing I have ever done, and I came in not knowing the difference between a petition and a judgment. My attorney explained each step in plain English, returned my calls the same day, and made sure I understood the community property paperwork before I signed anything. I always knew where my case stood.',
    practiceArea: 'divorce',
    isPublished: true,
  },
  {
    clientName: 'Robert & Linda K.',
    rating: 5,
    content:
      'We had put off our estate plan for years because it felt overwhelming. The team explained the difference between a will and a living trust at our kitchen-table level and walked us through getting our Clairemont house and brokerage account retitled into the trust. We left with a binder we actually understand.',
    practiceArea: 'estate-planning',
    isPublished: true,
  },
  {
    clientName: 'David R.',
    rating: 5,
    content:
      'As a Navy dad with an unpredictable deployment schedule, I was anxious about how a parenting plan could work for my daughter. They helped me put together a realistic schedule and prepared me for my Family Court Services appointment, so I knew what the counselor would ask about. I felt heard and prepared instead of lost.',
    practiceArea: 'custody',
    isPublished: true,
  },
  {
    clientName: 'Maria G.',
    rating: 5,
    content:
      'When my mother passed away I became the successor trustee of her trust and had no idea where to start. They gave me a clear checklist, took care of the notices to my brothers, and coordinated with the realtor when we sold her home in Chula Vista. Every question I sent got a thoughtful answer, usually within a day.',
    practiceArea: 'trust-administration',
    isPublished: true,
  },
  {
    clientName: 'Thomas H.',
    rating: 4,
    content:
      'I needed a premarital agreement before our wedding in La Jolla, and I appreciated how carefully they explained the financial disclosure requirements and the seven-day review period. Getting the first appointment took a little longer than I had hoped, but the work itself was thorough and the fees were explained up front.',
    practiceArea: 'family-law',
    isPublished: true,
  },
  {
    clientName: 'Angela P.',
    rating: 5,
    content:
      'My father died without a trust, so his condo in Escondido had to go through probate. From the first meeting they were honest that the process would take more than a year, and they sent me an update at every stage, from the first hearing to the final distribution. Knowing what to expect made a long process much easier to live with.',
    practiceArea: 'other',
    isPublished: true,
  },
  {
    clientName: 'Kevin & Priya S.',
    rating: 5,
    content:
      'After our son was born we finally sat down to name a guardian and set up a trust. The meeting felt like a conversation rather than a sales pitch, and they reminded us to update the beneficiaries on our retirement accounts, which we had never thought about. Signing day at the downtown office took less than an hour.',
    practiceArea: 'estate-planning',
    isPublished: true,
  },
];

export const samplePosts: readonly SamplePost[] = [
  {
    title: 'Revocable Living Trusts in California: How They Work and Why Funding Matters',
    slug: 'revocable-living-trusts-in-california-how-they-work-and-why-funding-matters',
    excerpt:
      'A living trust can help your family avoid probate, but only if it is properly funded. Here is how California revocable trusts work and the step many people miss.',
    category: 'estate-planning',
    author: estatePlanningAuthor,
    isPublished: true,
    publishedAt: new Date('2026-01-13T17:00:00Z'),
    content: `<p>For many California families, a revocable living trust is the centerpiece of an estate plan. It is not only a tool for the wealthy. Because home values in San Diego County are high, even a modest estate can exceed the limit for California's simplified small-estate procedures, which means that without planning, loved ones may face a court-supervised probate. A carefully prepared and properly funded trust is one of the most common ways to avoid that.</p>
<h2>What a revocable living trust is</h2>
<p>A revocable living trust is a written agreement in which you (the <strong>settlor</strong>, sometimes called the trustor) transfer assets to a trustee to hold for the beneficiaries you choose. In most plans you serve as your own trustee while you are alive and able, so daily life does not change: you can buy and sell property, refinance your home, and amend or revoke the trust at any time.</p>
<p>The trust also names a <strong>successor trustee</strong> who steps in if you become incapacitated or after your death. That person manages and distributes the trust assets according to your written instructions, generally without the court involvement that probate requires.</p>
<h2>Why people choose a trust</h2>
<ul>
<li><strong>Avoiding probate.</strong> Assets held in the trust generally pass outside of probate, which in California often takes a year or more and carries fees set by the Probate Code.</li>
<li><strong>Privacy.</strong> A probate file is a public court record. A trust is usually administered privately.</li>
<li><strong>Planning for incapacity.</strong> If you can no longer manage your affairs, your successor trustee can manage trust assets without a court conservatorship.</li>
<li><strong>Flexibility.</strong> You can stagger distributions for young beneficiaries, provide for a family member with special needs, or set terms suited to a blended family.</li>
</ul>
<p>A revocable trust does not, by itself, reduce income taxes or shield assets from your own creditors, and it is not the right tool for every situation. Its value depends on how well it fits your family and how carefully it is maintained.</p>
<h2>Funding: the step most often missed</h2>
<p>A trust controls only the assets that are actually titled in its name. Signing the trust document is the first step; <em>funding</em> it is the second, and it is where many plans fall short. An unfunded trust can leave a family facing probate despite having paid for an estate plan.</p>
<p>Funding typically involves:</p>
<ol>
<li><strong>Real estate.</strong> Recording a new deed that transfers your home or rental property to yourself as trustee. In San Diego County, deeds are recorded with the Assessor/Recorder/County Clerk, and a transfer into your own revocable trust generally does not trigger a property tax reassessment when the proper forms are filed.</li>
<li><strong>Bank and brokerage accounts.</strong> Retitling accounts into the trust or, where the institution allows it, naming the trust as the payable-on-death or transfer-on-death beneficiary.</li>
<li><strong>Business interests.</strong> Assigning LLC membership interests or shares of a closely held company, consistent with the company's governing documents.</li>
<li><strong>Personal property.</strong> A general assignment covering furniture, jewelry, art and other tangible items.</li>
</ol>
<p>Retirement accounts such as IRAs and 401(k)s are usually <em>not</em> retitled into a trust. They pass by beneficiary designation, and the choice of beneficiary has income tax consequences that deserve careful thought. Life insurance is generally handled the same way.</p>
<h2>Keeping the trust current</h2>
<p>A trust is not a one-time project. Review it after a marriage, divorce, birth, death, move, or a significant purchase or sale. When you refinance, some lenders ask you to take the home out of the trust temporarily; if so, confirm that it is transferred back afterward. And because no funding process is perfect, most trust-based plans include a <strong>pour-over will</strong> that directs any overlooked assets into the trust.</p>
<p>The Probate Code provisions that govern California trusts are available on the <a href="https://leginfo.legislature.ca.gov/faces/codes.xhtml">California Legislative Information</a> website.</p>
<p><em>This article is general information about California law, not legal advice, and reading it does not create an attorney-client relationship. Every family's circumstances are different. If you would like to talk about whether a living trust fits your plans, we invite you to schedule a consultation with ${firm.name}.</em></p>`,
  },
  {
    title: 'How California Courts Decide Child Custody: The Best-Interest Standard',
    slug: 'how-california-courts-decide-child-custody-the-best-interest-standard',
    excerpt:
      'California judges decide custody based on the best interest of the child. Learn what legal and physical custody mean and which factors courts weigh.',
    category: 'family-law',
    author: familyLawAuthor,
    isPublished: true,
    publishedAt: new Date('2026-02-17T17:00:00Z'),
    content: `<p>When parents separate, the question that weighs on them most is usually not money or property. It is the children: where they will live, how decisions about them will be made, and how much time each parent will have with them. California law answers those questions with a single guiding principle, the <strong>best interest of the child</strong>.</p>
<h2>Legal custody and physical custody</h2>
<p>California divides custody into two parts:</p>
<ul>
<li><strong>Legal custody</strong> is the right and responsibility to make decisions about a child's health, education and welfare, such as which school the child attends or whether to consent to medical treatment.</li>
<li><strong>Physical custody</strong> refers to where the child lives and which parent provides day-to-day care.</li>
</ul>
<p>Either kind of custody can be <em>joint</em> (shared by both parents) or <em>sole</em> (held by one parent). Joint legal custody is common even when the child spends more time in one home. The details of who has the children on which days, holidays and school breaks are set out in a <strong>parenting plan</strong>, which becomes part of the court's custody and parenting time orders.</p>
<h2>What "best interest" means</h2>
<p>Family Code §3011 lists factors a court must consider when deciding what is in a child's best interest, including:</p>
<ul>
<li>the health, safety and welfare of the child;</li>
<li>any history of abuse by a parent or other person seeking custody;</li>
<li>the nature and amount of contact the child has with both parents; and</li>
<li>any habitual or continual illegal use of controlled substances or abuse of alcohol or prescription drugs by either parent.</li>
</ul>
<p>Family Code §3020 adds that it is California's public policy to ensure that children have frequent and continuing contact with both parents, except where that contact would not be in the child's best interest, and that the child's health, safety and welfare come first. The law does not prefer mothers over fathers, and a judge may not base a custody decision on a parent's sex.</p>
<h3>Domestic violence</h3>
<p>If a court finds that a parent has committed domestic violence against the other parent, the child, or certain others within the previous five years, Family Code §3044 creates a rebuttable presumption that awarding that parent sole or joint legal or physical custody is not in the child's best interest. Families affected by abuse should raise it early so the court can consider appropriate protections.</p>
<h3>The child's own wishes</h3>
<p>A child's preference can matter, particularly as the child grows older. Under Family Code §3042, a child who is 14 or older and wishes to address the court about custody will generally be permitted to do so unless the court finds it is not in the child's best interest. Younger children may also be heard where the court finds they are of sufficient age and capacity to form an intelligent preference.</p>
<h2>Mediation comes first</h2>
<p>When parents disagree about custody or parenting time, California requires them to meet with a court counselor before a judge decides the matter. In San Diego this takes place through Family Court Services. Many parents reach an agreement there, and an agreement they build themselves is often more workable than one imposed on them.</p>
<h2>Practical steps that help children</h2>
<ul>
<li>Keep the focus on the children's routines, school and activities rather than on the adult conflict.</li>
<li>Communicate respectfully and in writing when possible; many parents use a co-parenting app.</li>
<li>Never discuss the case with the children or speak negatively about the other parent in front of them.</li>
<li>Follow existing orders carefully, even if you hope to change them.</li>
</ul>
<p>The California Courts <a href="https://selfhelp.courts.ca.gov/">Self-Help Guide</a> has plain-language information and the forms used in custody cases.</p>
<p><em>This article is general information, not legal advice, and every family's situation is different. If you have questions about custody or a parenting plan, we invite you to schedule a confidential consultation with ${firm.name}.</em></p>`,
  },
  {
    title: 'Community Property in a California Divorce: What Gets Divided and How',
    slug: 'community-property-in-a-california-divorce-what-gets-divided-and-how',
    excerpt: 'California is a community property state. Here is what that means for your home, savings, retirement accounts and debts when a marriage ends.',
    category: 'divorce',
    author: firmAuthor,
    isPublished: true,
    publishedAt: new Date('2026-03-24T16:00:00Z'),
    content: `<p>California is one of a handful of community property states, and that framework shapes how nearly every asset and debt is handled when a marriage ends. Understanding the basic rules can make the process less confusing and help you ask better questions.</p>
<h2>What counts as community property</h2>
<p>Under <a href="https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=FAM&amp;sectionNum=760">Family Code §760</a>, except as otherwise provided by statute, all property a married person acquires during the marriage while living in California is community property. In practice that usually includes:</p>
<ul>
<li>wages and salary earned during the marriage, and what they were used to buy;</li>
<li>a home purchased during the marriage, generally even if only one spouse's name is on the title;</li>
<li>retirement contributions and pension benefits earned during the marriage; and</li>
<li>businesses started or grown with community effort during the marriage.</li>
</ul>
<h2>What counts as separate property</h2>
<p>Family Code §770 defines separate property as property owned before marriage, property received by gift or inheritance, and the rents, issues and profits of that separate property. Earnings and accumulations after the <strong>date of separation</strong> are also generally separate. Because the date of separation can affect the value of retirement accounts, bonuses and businesses, it is sometimes disputed; Family Code §70 describes it as the point when there has been a complete and final break in the marital relationship.</p>
<h2>Mixed property and tracing</h2>
<p>Real life is rarely tidy. A spouse may have bought a condo before the marriage and then paid down the mortgage with marital earnings, or deposited an inheritance into a joint account. In these situations property can have both community and separate interests. California courts use established formulas to apportion a home purchased before marriage, and Family Code §2640 allows reimbursement in some circumstances for separate property contributions toward community property. When separate and community funds are mixed, the spouse claiming a separate interest generally needs records to <em>trace</em> it, so keeping old statements is worthwhile.</p>
<h2>How property is divided</h2>
<p>Unless the spouses agree otherwise in writing or on the record, Family Code §2550 directs the court to divide the community estate equally. Equal division does not mean every item is cut in half. Often one spouse keeps the house while the other keeps retirement accounts of similar value, or one spouse makes an equalizing payment. Retirement plans are frequently divided with a separate court order, such as a qualified domestic relations order, so the plan administrator can pay each spouse's share.</p>
<h3>Debts are divided too</h3>
<p>Debts incurred during the marriage are generally community obligations and are allocated as part of the division. Keep in mind that a divorce judgment binds the spouses, not the creditors; if a joint credit card remains open, the lender may still look to both names on the account.</p>
<h2>Full disclosure is required</h2>
<p>Spouses owe each other fiduciary duties, and both must exchange preliminary declarations of disclosure listing their assets, debts, income and expenses. Hiding or undervaluing assets can lead to serious consequences, including the court awarding the concealed asset to the other spouse. Gathering bank, brokerage, retirement and loan statements early makes this step smoother.</p>
<h2>A note on agreements</h2>
<p>A valid premarital or postmarital agreement can change how property is characterized. If you have one, bring it to your first meeting with your attorney so it can be reviewed along with everything else.</p>
<p><em>This article is general information about California law, not legal advice. How these rules apply depends on the facts of your marriage. If you would like to discuss your situation, we invite you to schedule a consultation with ${firm.name}.</em></p>`,
  },
  {
    title: 'The California Probate Process, Step by Step',
    slug: 'the-california-probate-process-step-by-step',
    excerpt:
      'Probate in California often takes 12 to 18 months. This overview walks through each stage, from the first petition to the final distribution, and explains how fees are set.',
    category: 'probate',
    author: estatePlanningAuthor,
    isPublished: true,
    publishedAt: new Date('2026-04-21T16:00:00Z'),
    content: `<p>Probate is the court-supervised process for settling the estate of someone who has died. In California it is often required when a person dies owning assets in their own name, without a living trust, beneficiary designation or joint title that passes those assets automatically. If you have recently been named executor, or you are the closest relative of someone who died without a will, here is what the process usually looks like.</p>
<h2>When probate is required</h2>
<p>Not every estate needs a full probate. California allows simpler procedures for smaller estates; for deaths on or after April 1, 2025, the general small-estate limit is $208,850, a figure that is adjusted every three years. Assets that pass by beneficiary designation, joint tenancy or a funded trust usually do not count toward that limit. Because real estate in San Diego County often exceeds it on its own, many local estates that hold a house outside a trust do require probate.</p>
<h2>The main stages</h2>
<ol>
<li><strong>Filing the petition.</strong> The executor named in the will, or a close relative if there is no will, files a Petition for Probate in the superior court of the county where the decedent lived. The original will is lodged with the court.</li>
<li><strong>Notice and hearing.</strong> Notice of the hearing is published in a local newspaper and mailed to heirs and beneficiaries. At the hearing, the court decides whether to admit the will and appoint the personal representative.</li>
<li><strong>Letters.</strong> Once appointed, the personal representative receives <em>Letters Testamentary</em> or <em>Letters of Administration</em>, the document banks and title companies ask for. A bond may be required unless the will or the beneficiaries waive it.</li>
<li><strong>Notice to creditors.</strong> Known creditors must be notified. Creditors generally have until the later of four months after Letters are issued or 60 days after notice is mailed to them to file claims.</li>
<li><strong>Inventory and appraisal.</strong> The personal representative lists the estate's assets. Cash items are valued by the representative, and most other assets are appraised by a court-appointed probate referee.</li>
<li><strong>Managing the estate.</strong> Bills, taxes and valid claims are paid, and property may be sold. Many representatives are granted authority under the Independent Administration of Estates Act, which allows many actions, including some real estate sales, with notice to beneficiaries rather than a separate court hearing.</li>
<li><strong>Accounting and distribution.</strong> Once the creditor period has passed and the estate is in order, the representative files a petition for final distribution, usually with an accounting. After the court approves it, assets are distributed and the representative is discharged.</li>
</ol>
<h2>How long it takes</h2>
<p>A straightforward California probate commonly takes 12 to 18 months. Court calendars, the sale of real estate, tax questions, disputes among family members or a will contest can extend that timeline. Clear records and prompt responses from the family are among the few things that help keep it moving.</p>
<h2>How fees are set</h2>
<p>California is unusual in that the Probate Code sets "statutory" fees for both the personal representative and the attorney, calculated as a percentage of the estate's gross value. Under <a href="https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=PROB&amp;sectionNum=10810">Probate Code §10810</a> the schedule is:</p>
<ul>
<li>4% of the first $100,000;</li>
<li>3% of the next $100,000;</li>
<li>2% of the next $800,000;</li>
<li>1% of the next $9 million;</li>
<li>0.5% of the next $15 million; and</li>
<li>a reasonable amount set by the court for anything above $25 million.</li>
</ul>
${calculatorNote()}
<p>Because the fee is based on gross value, a mortgage does not reduce it. Work beyond ordinary administration, such as litigation or a complex sale, may support additional "extraordinary" fees, but only with court approval. A personal representative who is also a beneficiary may choose to waive their own fee.</p>
<p>The <a href="https://selfhelp.courts.ca.gov/">California Courts Self-Help Guide</a> has more information about probate forms and procedures.</p>
<p><em>This article is general information, not legal advice, and every estate is different. If you have been asked to serve as an executor or administrator, we invite you to schedule a consultation with ${firm.name} to talk through the next steps.</em></p>`,
  },
  {
    title: 'Beyond the Trust: Pour-Over Wills, Health Care Directives and Powers of Attorney',
    slug: 'beyond-the-trust-pour-over-wills-health-care-directives-and-powers-of-attorney',
    excerpt: 'A living trust is only one part of a complete California estate plan. These three companion documents fill the gaps a trust cannot cover.',
    category: 'estate-planning',
    author: firmAuthor,
    isPublished: true,
    publishedAt: new Date('2026-05-19T16:00:00Z'),
    content: `<p>When people think about estate planning, they usually picture a will or a living trust. A trust is often the centerpiece, but a complete California estate plan typically includes several companion documents. Each one covers a situation the trust cannot handle on its own, and leaving any of them out can create real difficulties for your family.</p>
<h2>The pour-over will</h2>
<p>Even a carefully funded trust can miss something: an account opened after the trust was signed, a vehicle, or an inheritance received late in life. A <strong>pour-over will</strong> acts as a safety net. It directs that any assets you own in your individual name at death be transferred, or "poured over," into your trust, so they are distributed under the trust's terms.</p>
<p>A pour-over will does not avoid probate for the assets it catches. If those assets are worth more than California's small-estate limit, a probate may still be needed. That is why funding the trust during your lifetime remains so important.</p>
<p>The will also serves another essential purpose for parents: it is where you <strong>nominate a guardian</strong> for minor children. A trust can manage money for children, but it is the will that tells the court whom you would want to raise them.</p>
<h2>The durable power of attorney for finances</h2>
<p>Your successor trustee can manage assets that are held in the trust, but not everything belongs there. Retirement accounts, tax filings, government benefits and assets that were never transferred to the trust remain outside its reach. A <strong>durable power of attorney</strong> names an agent who can handle those financial matters for you if you become unable to do so.</p>
<p>"Durable" means the document stays effective after you lose capacity, which is exactly when it is needed. Without one, your family may have to ask the court to appoint a conservator, a process that can be slow, public and costly. Choose an agent you trust completely, and talk with them about your wishes before you sign.</p>
<h2>The advance health care directive</h2>
<p>An <strong>advance health care directive</strong> lets you name a health care agent to make medical decisions if you cannot speak for yourself, and lets you state your wishes about treatment, including end-of-life care, pain relief and organ donation. California's Health Care Decisions Law is part of the Probate Code, and section 4701 provides an optional statutory form.</p>
<p>To be valid, an advance health care directive must be signed and either notarized or witnessed by two qualified adult witnesses. Special witnessing rules apply to residents of skilled nursing facilities. Most plans also include a <strong>HIPAA authorization</strong> so your agent and family members can speak with doctors and obtain medical information.</p>
<h3>Make sure it can be found</h3>
<p>A directive helps only if the people caring for you know about it. Give copies to your agent and your physician, keep the original somewhere accessible, and consider registering it with the <a href="https://www.sos.ca.gov/">California Secretary of State's</a> Advance Health Care Directive Registry.</p>
<h2>Reviewing the whole plan</h2>
<p>These documents work together. We generally suggest reviewing all of them every few years and after major life events such as a marriage, divorce, birth, death or move, and confirming that the people you named are still willing and able to serve. The statutes themselves are available on the <a href="https://leginfo.legislature.ca.gov/faces/codes.xhtml">California Legislative Information</a> website.</p>
<p><em>This article is general information, not legal advice, and it does not create an attorney-client relationship. If you would like help reviewing or completing your estate plan, we invite you to schedule a consultation with ${firm.name}.</em></p>`,
  },
  {
    title: 'What to Expect at Child Custody Recommending Counseling in San Diego',
    slug: 'what-to-expect-at-child-custody-recommending-counseling-in-san-diego',
    excerpt:
      'Before a San Diego judge decides a custody dispute, parents meet with a Family Court Services counselor. Here is how the process works and how to prepare.',
    category: 'family-law',
    author: firmAuthor,
    isPublished: true,
    publishedAt: new Date('2026-07-14T16:00:00Z'),
    content: `<p>If you and your child's other parent disagree about custody or parenting time, California requires you to meet with a court counselor before a judge decides the issue. Family Code §3170 makes this mediation step mandatory in contested custody and visitation matters. In San Diego County it is handled by the Superior Court's <strong>Family Court Services</strong>, and the process is called <strong>Child Custody Recommending Counseling</strong>, often shortened to CCRC.</p>
<h2>How San Diego's process works</h2>
<p>California counties choose between two models. In some, mediation is confidential and the mediator does not report to the judge. San Diego is a <em>recommending</em> county: if the parents do not reach a full agreement, the counselor may give the court a written recommendation about custody and parenting time. The judge is not required to follow it, but recommendations are taken seriously, so it is important to approach the session thoughtfully.</p>
<p>Before the appointment, the court typically asks parents to complete an orientation that explains the process. Check the current instructions on the <a href="https://www.sdcourt.ca.gov/">San Diego Superior Court</a> website or in the paperwork you receive, since procedures and scheduling can change.</p>
<h2>What happens in the session</h2>
<p>The counselor will usually ask each parent about the children's routines, school, health, activities and relationships, and about each parent's work schedule and living situation. The goal is to help the parents build a workable parenting plan. If you agree on some or all issues, the counselor can write up the agreement for the court to consider.</p>
<p>Attorneys generally do not take part in the session itself, which is why preparation ahead of time matters. Where there is a history of domestic violence or a protective order, parents can ask to meet with the counselor separately, and the court has procedures designed to keep everyone safe.</p>
<h2>How to prepare</h2>
<ol>
<li><strong>Bring a proposed schedule.</strong> Think through the regular week, holidays, school breaks, summer and birthdays. A written proposal shows you have considered the details.</li>
<li><strong>Know the logistics.</strong> Where will exchanges happen? Who handles school pickup? How will you communicate about the children? Concrete answers help.</li>
<li><strong>Focus on the children.</strong> Counselors apply the best-interest standard. Describe what your children need and how your plan meets those needs, rather than cataloguing the other parent's faults.</li>
<li><strong>Be honest about concerns.</strong> If you have real safety concerns, such as substance abuse or violence, state them calmly and specifically, with dates where you can.</li>
<li><strong>Stay open to compromise.</strong> Plans that both parents help create are often easier to follow and less likely to end up back in court.</li>
</ol>
<h3>Special situations</h3>
<p>Military families, parents who work rotating shifts, and families separated by long distances often need creative schedules. It is worth thinking through deployments, relocations or long-distance parenting time before the session so you can discuss realistic options.</p>
<h2>After the session</h2>
<p>If you reach an agreement, it may become a court order once it is signed by the parties and the judge. If you do not, the counselor's recommendation will typically be provided to the parents and the court before the hearing, and each parent will have a chance to respond to it in court.</p>
<blockquote>Preparation is not about winning the session; it is about giving the counselor an accurate picture of your children's lives.</blockquote>
<p><em>This article is general information, not legal advice, and court procedures can change. If you have an upcoming Family Court Services appointment and would like help preparing, we invite you to schedule a consultation with ${firm.name}.</em></p>`,
  },
  {
    title: "California's Six-Month Waiting Period and a Realistic Divorce Timeline",
    slug: 'californias-six-month-waiting-period-and-a-realistic-divorce-timeline',
    excerpt:
      'California requires at least six months before a divorce becomes final, but many cases take longer. Here is what happens during that time and what affects the pace.',
    category: 'divorce',
    author: familyLawAuthor,
    isPublished: true,
    publishedAt: new Date('2026-09-08T16:00:00Z'),
    content: `<p>One of the first questions people ask when they decide to divorce is how long it will take. California law sets a minimum timeframe, but the real answer depends on how many issues need to be resolved and how the spouses approach them.</p>
<h2>Before you file: residency</h2>
<p>To file for divorce (called <em>dissolution of marriage</em>) in California, one spouse must have lived in the state for at least six months and in the county where the case is filed for at least three months before filing. If you do not yet meet those requirements, you may be able to file for legal separation and later amend the petition to request a divorce once you qualify.</p>
<h2>The six-month waiting period</h2>
<p>Under <a href="https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=FAM&amp;sectionNum=2339">Family Code §2339</a>, the earliest date a marriage can be legally ended is six months after the respondent was served with the petition and summons, or six months after the respondent first appeared in the case, whichever comes first. This waiting period applies even when both spouses agree on everything.</p>
<p>The six months is a minimum, not a deadline. If the spouses have not resolved their issues by then, the case simply continues until they do, or until the court decides them.</p>
<h2>The main steps</h2>
<ol>
<li><strong>Petition and summons.</strong> One spouse files the Petition and Summons with the superior court, and the other spouse is formally served.</li>
<li><strong>Response.</strong> The responding spouse generally has 30 days after service to file a response.</li>
<li><strong>Financial disclosures.</strong> Both spouses must exchange preliminary declarations of disclosure, including a schedule of assets and debts and an income and expense declaration. The filing spouse must serve these within 60 days of filing the petition.</li>
<li><strong>Temporary orders, if needed.</strong> Either spouse can ask the court for temporary orders on custody, child support, spousal support or use of the family home while the case is pending.</li>
<li><strong>Negotiation or mediation.</strong> Most couples resolve their issues through negotiation between attorneys, private mediation or a settlement conference rather than a trial.</li>
<li><strong>Judgment.</strong> The agreement, or the court's decisions after trial, are written into a judgment that the judge signs.</li>
</ol>
<h2>What affects the timeline</h2>
<p>An uncontested divorce with cooperative spouses and simple finances may be completed shortly after the six-month period ends, although court processing times for judgments vary. Cases with contested custody, a family business, real estate, retirement accounts to value or disputes over the date of separation commonly take a year or longer. Factors that tend to slow a case include:</p>
<ul>
<li>incomplete or delayed financial disclosures;</li>
<li>the need for appraisals, business valuations or forensic accounting;</li>
<li>disagreement about parenting time; and</li>
<li>busy court calendars for hearings and trial dates.</li>
</ul>
<h3>Ending the marriage first</h3>
<p>In some cases a spouse who wants to remarry or simply move on can ask the court to end the marital status once the six months have passed, while property or support issues continue to be resolved. This is called bifurcation, and the court may impose conditions to protect the other spouse's rights.</p>
<h2>Practical tips</h2>
<p>Gather tax returns, pay stubs, bank and retirement statements, and loan documents early. Respond promptly to requests from your attorney, and keep communication with your spouse civil and, where possible, in writing. These steps will not control the court's calendar, but they can prevent avoidable delays.</p>
<p>Official forms and instructions are available through the <a href="https://selfhelp.courts.ca.gov/">California Courts Self-Help Guide</a>.</p>
<p><em>This article is general information, not legal advice, and every divorce is different. If you are considering divorce or have been served with a petition, we invite you to schedule a consultation with ${firm.name} to talk about your options.</em></p>`,
  },
  {
    title: 'Trust Administration in California: A Guide for Successor Trustees',
    slug: 'trust-administration-in-california-a-guide-for-successor-trustees',
    excerpt:
      'Serving as a successor trustee is an honor and a legal responsibility. Here are the duties, deadlines and practical steps involved in administering a California trust.',
    category: 'probate',
    author: estatePlanningAuthor,
    isPublished: true,
    publishedAt: new Date('2026-11-03T17:00:00Z'),
    content: `<p>When someone with a living trust dies, the trust generally becomes irrevocable and the named <strong>successor trustee</strong> takes charge. Trust administration usually avoids probate court, but it is still a legal process with real duties and deadlines. Many successor trustees are adult children or close friends who have never done this before, so it helps to know what lies ahead.</p>
<h2>A trustee's core duties</h2>
<p>The California Probate Code holds trustees to the standards of a fiduciary. Among the most important duties are:</p>
<ul>
<li><strong>Loyalty.</strong> Administer the trust solely in the interest of the beneficiaries, and avoid self-dealing.</li>
<li><strong>Impartiality.</strong> Treat beneficiaries fairly according to the trust's terms, even when one of them is you.</li>
<li><strong>Prudence.</strong> Manage and invest trust property with reasonable care, skill and caution.</li>
<li><strong>Keeping property separate.</strong> Never mix trust assets with your own funds; open a separate trust account.</li>
<li><strong>Informing and accounting.</strong> Keep beneficiaries reasonably informed and provide accountings as the law and the trust require.</li>
</ul>
<p>A trustee who breaches these duties can be held personally responsible, so when in doubt it is wise to ask before acting.</p>
<h2>Early steps and key deadlines</h2>
<ol>
<li><strong>Locate the documents.</strong> Find the trust, any amendments, the pour-over will and recent statements. Obtain several certified copies of the death certificate.</li>
<li><strong>Secure the assets.</strong> Protect the home, keep insurance in force, and track down accounts, vehicles and valuables.</li>
<li><strong>Serve the required notice.</strong> Under <a href="https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=PROB&amp;sectionNum=16061.7">Probate Code §16061.7</a>, the trustee generally must serve a notification on the beneficiaries and legal heirs within 60 days after the trust becomes irrevocable. This notice starts a limited period, generally 120 days, for anyone who wishes to contest the trust.</li>
<li><strong>Report the change in ownership.</strong> When real property passes at death, a change in ownership statement is generally due to the county assessor within 150 days. In San Diego County that is the Assessor/Recorder/County Clerk. Property tax reassessment rules for transfers between parents and children changed significantly under Proposition 19, so this step deserves attention.</li>
<li><strong>Obtain a tax identification number.</strong> The now-irrevocable trust is a separate taxpayer and usually needs its own EIN.</li>
</ol>
<h2>Valuing, managing and paying</h2>
<p>Assets are typically valued as of the date of death, which matters for the income tax basis beneficiaries receive. The trustee pays final expenses, valid debts and taxes, including the decedent's final income tax returns and any trust income tax returns. Real estate may be sold or distributed in kind, depending on the trust's terms and the beneficiaries' wishes.</p>
<h2>Accounting and distribution</h2>
<p>Once debts and taxes are addressed, the trustee prepares an accounting, or obtains written waivers where permitted, and distributes the assets as the trust directs. Many trustees hold back a modest reserve for final tax obligations. Beneficiaries typically sign receipts when they receive their shares.</p>
<h3>How long does it take?</h3>
<p>Simpler trust administrations can often be completed within about a year, while those involving real estate sales, a family business, tax issues or family disagreements can take considerably longer. Keeping organized records from day one makes every stage easier.</p>
<h3>Can a trustee be paid?</h3>
<p>Yes. If the trust does not set compensation, California law generally allows a trustee reasonable compensation for their work. Many family trustees choose to waive it, and either choice is acceptable when handled openly.</p>
<p><em>This article is general information about California law, not legal advice. If you have been named successor trustee and would like guidance on your responsibilities, we invite you to schedule a consultation with ${firm.name}.</em></p>`,
  },
  {
    title: 'Spousal Support in California: Temporary and Long-Term Orders Explained',
    slug: 'spousal-support-in-california-temporary-and-long-term-orders-explained',
    excerpt: 'California treats temporary and long-term spousal support very differently. Learn how each is determined and which factors judges consider.',
    category: 'divorce',
    author: familyLawAuthor,
    isPublished: false,
    publishedAt: null,
    content: `<p>Spousal support, sometimes called alimony, is one of the most misunderstood parts of a California divorce. Many people expect a single formula to decide it. In reality, California treats support during the case very differently from support after the judgment, and the outcome depends heavily on each family's circumstances.</p>
<h2>Temporary spousal support</h2>
<p>While a divorce or legal separation is pending, either spouse can ask the court for <strong>temporary spousal support</strong>. Its purpose is to help maintain the status quo and allow both spouses to meet their needs while the case moves forward. Courts commonly calculate temporary support with a formula, often using court-approved software that considers each spouse's income, tax filing status and certain deductions. The judge still has discretion to depart from the calculated amount.</p>
<h2>Long-term spousal support</h2>
<p>Support ordered in the final judgment is different. There is no formula for it. Instead, the court must consider a list of factors in <a href="https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=FAM&amp;sectionNum=4320">Family Code §4320</a>, including:</p>
<ul>
<li>the marital standard of living;</li>
<li>each spouse's earning capacity, and whether it is enough to maintain that standard of living;</li>
<li>the extent to which one spouse contributed to the other's education, training or career;</li>
<li>the supporting spouse's ability to pay;</li>
<li>each spouse's needs, assets and obligations;</li>
<li>the length of the marriage;</li>
<li>the age and health of each spouse;</li>
<li>any documented history of domestic violence; and</li>
<li>the goal that the supported spouse become self-supporting within a reasonable period of time.</li>
</ul>
<h3>Length of the marriage</h3>
<p>For marriages of less than ten years, the law suggests that a "reasonable period of time" for support is generally one-half the length of the marriage, though the court can order otherwise. A marriage of ten years or more is presumed to be of <em>long duration</em>, and the court may keep jurisdiction over support indefinitely. That does not mean support will last forever; it means the court keeps the ability to review it.</p>
<h3>Becoming self-supporting</h3>
<p>Courts may advise the supported spouse that they are expected to make reasonable efforts to become self-supporting. In some cases a vocational evaluation is ordered to assess earning capacity. Keeping records of job searches, training and applications can be important.</p>
<h2>Changing or ending support</h2>
<p>Unless the parties agree otherwise in writing, spousal support ends when either spouse dies or the supported spouse remarries. Either spouse can ask the court to modify support if there has been a material change in circumstances, such as a job loss or a significant change in income. Cohabitation with a new partner can also be relevant, because the law presumes a decreased need for support in some of those situations.</p>
<p>Spouses can also negotiate their own support terms, including making support non-modifiable or setting a firm end date. Those agreements can provide certainty, but they should be drafted carefully, because some terms are difficult or impossible to change later.</p>
<h2>A note on taxes</h2>
<p>Federal tax treatment of spousal support changed for judgments entered after 2018, and California's rules differ from the federal rules. It is wise to talk with a tax professional before finalizing any support agreement.</p>
<p><em>This article is general information, not legal advice. Support depends on many individual facts. If you have questions about spousal support in your case, we invite you to schedule a consultation with ${firm.name}.</em></p>`,
  },
];

/**
 * Whether a stored testimonial or post still holds a seeded sample's text (docs/decisions/029): the
 * seed wrote it for development and nobody has made it the firm's own since. The admin lists mark
 * such rows "Sample"; editing the text makes a row the firm's. No column: databases seeded before
 * this are recognised too.
 */
const sampleTestimonialTexts = new Set(sampleTestimonials.map((t) => t.content));
const samplePostTexts = new Set(samplePosts.map((p) => p.content));
export const isSeededSampleTestimonial = (row: { content: string }) => sampleTestimonialTexts.has(row.content);
export const isSeededSamplePost = (row: { content: string }) => samplePostTexts.has(row.content);
