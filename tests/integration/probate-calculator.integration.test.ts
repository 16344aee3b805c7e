import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { estimateProbate } from '../../src/shared/probate.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

const figures = ['attorneyFees', 'executorFees', 'courtCosts', 'totalProbate', 'trustCost', 'savings'] as const;

/** The payload the calculator island sends: every amount as a string (SPEC §7). */
function payload(estateValue: number, realEstateValue = 0, userEmail?: string | null) {
  const e = estimateProbate(estateValue, realEstateValue);
  return {
    estateValue: String(e.estateValue),
    realEstateValue: String(e.realEstateValue),
    attorneyFees: String(e.attorneyFees),
    executorFees: String(e.executorFees),
    courtCosts: String(e.courtCosts),
    totalProbate: String(e.totalProbate),
    trustCost: String(e.trustCost),
    savings: String(e.savings),
    ...(userEmail === undefined ? {} : { userEmail }),
  };
}

async function stored(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.probateCalculations).where(eq(t.probateCalculations.id, id));
  return row;
}

async function save(ctx: TestContext, body: Record<string, unknown>) {
  const res = await ctx.call('POST', '/api/probate-calculator', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; createdAt: string };
}

forEachDialect('probate calculator', (ctx) => {
  it('stores a calculation exactly, amounts as two-decimal strings, with the email', async () => {
    const body = payload(1_250_000, 800_000, 'visitor@example.com');
    // The schedule for 1,250,000: 4,000 + 13,500 + 2,500 = 20,000 each; court 3,750.
    expect(body).toMatchObject({
      attorneyFees: '20000',
      executorFees: '20000',
      courtCosts: '3750',
      totalProbate: '43750',
      trustCost: '3000',
      savings: '40750',
    });
    const created = await save(ctx(), body);
    expect(created.id).toBeTypeOf('string');
    const row = await stored(ctx(), created.id);
    expect(row).toEqual({
      id: created.id,
      estateValue: '1250000.00',
      realEstateValue: '800000.00',
      attorneyFees: '20000.00',
      executorFees: '20000.00',
      courtCosts: '3750.00',
      totalProbate: '43750.00',
      trustCost: '3000.00',
      savings: '40750.00',
      userEmail: 'visitor@example.com',
      createdAt: expect.any(Date),
    });
  });

  it('stores cents, thousands separators and numbers the same way in both dialects', async () => {
    const base = payload(500_000.5, 0);
    const created = await save(ctx(), { ...base, estateValue: '500,000.5', realEstateValue: '0', trustCost: 3000, userEmail: ' Visitor@Example.com ' });
    expect(await stored(ctx(), created.id)).toMatchObject({
      estateValue: '500000.50',
      realEstateValue: '0.00',
      attorneyFees: `${base.attorneyFees}.00`,
      trustCost: '3000.00',
      userEmail: 'Visitor@Example.com',
    });
    const big = payload(9_999_999_999.99, 9_999_999_999.99);
    const bigRow = await stored(ctx(), (await save(ctx(), big)).id);
    expect(bigRow).toMatchObject({ estateValue: '9999999999.99', realEstateValue: '9999999999.99', attorneyFees: `${big.attorneyFees}.00` });
  });

  it('treats the email as optional: missing, null or blank is stored as null', async () => {
    for (const email of [undefined, null, '', '   ']) {
      const created = await save(ctx(), payload(350_000, 0, email));
      const row = await stored(ctx(), created.id);
      expect(row!.userEmail, JSON.stringify(email)).toBeNull();
      expect(row!.estateValue).toBe('350000.00');
      expect(row!.savings).toBe(`${estimateProbate(350_000).savings}.00`);
    }
  });

  it('stores small estates whose savings floor at 0', async () => {
    const body = payload(20_000);
    expect(body).toMatchObject({ attorneyFees: '800', executorFees: '800', courtCosts: '800', totalProbate: '2400', savings: '0' });
    const row = await stored(ctx(), (await save(ctx(), body)).id);
    expect(row).toMatchObject({ totalProbate: '2400.00', trustCost: '3000.00', savings: '0.00' });
  });

  it('rejects a bad estate value, bad amounts and a bad email with the field named, and writes nothing', async () => {
    const before = await countRows(ctx(), 'probateCalculations');
    const good = payload(400_000, 100_000);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, estateValue: '0' }, 'estateValue'],
      [{ ...good, estateValue: '0.00' }, 'estateValue'],
      [{ ...good, estateValue: '-400000' }, 'estateValue'],
      [{ ...good, estateValue: 'four hundred thousand' }, 'estateValue'],
      [{ ...good, estateValue: '' }, 'estateValue'],
      [{ ...good, estateValue: undefined }, 'estateValue'],
      [{ ...good, estateValue: '400000.001' }, 'estateValue'],
      [{ ...good, estateValue: '12345678901.00' }, 'estateValue'],
      [{ ...good, estateValue: '1e6' }, 'estateValue'],
      [{ ...good, realEstateValue: '-1' }, 'realEstateValue'],
      [{ ...good, realEstateValue: '100000.123' }, 'realEstateValue'],
      [{ ...good, attorneyFees: '10500.999' }, 'attorneyFees'],
      [{ ...good, totalProbate: '1234567890123' }, 'totalProbate'],
      [{ ...good, savings: 'lots' }, 'savings'],
      [{ ...good, courtCosts: null }, 'courtCosts'],
      [{ ...good, userEmail: 'not-an-email' }, 'userEmail'],
      [{ ...good, userEmail: 'visitor@' }, 'userEmail'],
    ];
    for (const [body, field] of cases) {
      const res = await ctx().call('POST', '/api/probate-calculator', { body });
      expect(res.status, `${field}: ${JSON.stringify(body[field])}`).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(res.body.fields[field], `${field}: ${JSON.stringify(res.body.fields)}`).toBeTypeOf('string');
    }
    const zero = await ctx().call('POST', '/api/probate-calculator', { body: { ...good, estateValue: '0' } });
    expect(zero.body.fields.estateValue).toBe('Please enter a valid estate value greater than $0.');
    const badEmail = await ctx().call('POST', '/api/probate-calculator', { body: { ...good, userEmail: 'not-an-email' } });
    expect(badEmail.body.fields.userEmail).toBe('Please enter a valid email address');
    expect((await ctx().call('POST', '/api/probate-calculator', { body: {} })).status).toBe(400);
    expect(await countRows(ctx(), 'probateCalculations')).toBe(before);
  });

  it('rejects figures that do not match the fee schedule, naming the wrong fields, and writes nothing', async () => {
    const before = await countRows(ctx(), 'probateCalculations');
    const good = payload(2_000_000, 0);
    // 2,000,000: 4,000 + 13,500 + 10,000 = 27,500 each; court 5,000 (the cap); total 60,000.
    expect(good).toMatchObject({ attorneyFees: '27500', courtCosts: '5000', totalProbate: '60000', savings: '57000' });

    const oneWrong = await ctx().call('POST', '/api/probate-calculator', { body: { ...good, attorneyFees: '27501' } });
    expect(oneWrong.status).toBe(400);
    expect(oneWrong.body.fields).toEqual({ attorneyFees: 'Expected 27500' });

    // The California statute's figures (23,000 per party at 1M) are not this schedule's.
    const statute = await ctx().call('POST', '/api/probate-calculator', {
      body: { ...payload(1_000_000), attorneyFees: '23000', executorFees: '23000', totalProbate: '49000', savings: '46000' },
    });
    expect(statute.status).toBe(400);
    expect(Object.keys(statute.body.fields).sort()).toEqual(['attorneyFees', 'executorFees', 'savings', 'totalProbate']);

    // Another estate value's figures.
    const other = await ctx().call('POST', '/api/probate-calculator', { body: { ...payload(300_000), estateValue: '3000000' } });
    expect(other.status).toBe(400);
    expect(Object.keys(other.body.fields).sort()).toEqual(['attorneyFees', 'courtCosts', 'executorFees', 'savings', 'totalProbate']);

    // The schedule quotes whole dollars: cents on a figure are not what was quoted.
    for (const key of figures) {
      const value = `${good[key]}.40`;
      const res = await ctx().call('POST', '/api/probate-calculator', { body: { ...good, [key]: value } });
      expect(res.status, `${key}=${value}`).toBe(400);
      expect(Object.keys(res.body.fields), key).toEqual([key]);
    }
    const trust = await ctx().call('POST', '/api/probate-calculator', { body: { ...good, trustCost: '2500' } });
    expect(trust.body.fields).toEqual({ trustCost: 'Expected 3000' });
    const negativeSavings = await ctx().call('POST', '/api/probate-calculator', { body: { ...payload(20_000), savings: '600' } });
    expect(negativeSavings.body.fields).toEqual({ savings: 'Expected 0' });
    expect(await countRows(ctx(), 'probateCalculations')).toBe(before);
  });

  it('accepts the schedule figures written with two decimals', async () => {
    const good = payload(2_000_000, 0);
    const withCents = Object.fromEntries(Object.entries(good).map(([k, v]) => [k, `${v}.00`]));
    const row = await stored(ctx(), (await save(ctx(), withCents)).id);
    expect(row).toMatchObject({ estateValue: '2000000.00', attorneyFees: '27500.00', courtCosts: '5000.00', totalProbate: '60000.00', savings: '57000.00' });
  });
});
