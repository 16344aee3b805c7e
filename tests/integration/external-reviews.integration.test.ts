/**
 * External reviews the firm records (docs/decisions/029), on SQLite and PostgreSQL: the admin routes
 * (validation with a message per field, 404s, the quick hide), the public list of the visible ones,
 * and, with the real server and the built site, the home page following each change: the firm's
 * review with its link instead of the samples, gone again when hidden.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorAdminToken } from '../../bench/identity.ts';
import { sampleExternalReviews } from '../../src/content/reviews.ts';
import type { ExternalReviewInput } from '../../src/shared/schemas/external-reviews.ts';
import { errorOf, testApi, unchecked } from '../support/api.ts';
import { serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';
import { ADMIN_TOKEN, countRows, forEachDialect, NON_ADMIN_TOKEN } from '../support/test-app.ts';

const valid = {
  reviewerName: 'Jennifer M.',
  platform: 'google',
  rating: 5,
  content: 'Clear advice at every step.',
  reviewUrl: 'https://www.google.com/maps/reviews/data=abc123',
  reviewedOn: '2026-03-04',
  isVisible: true,
} as const;

forEachDialect('external reviews', (ctx) => {
  const visitor = () => testApi(ctx().app);
  const admin = () => testApi(ctx().app, { token: ADMIN_TOKEN }).admin;
  const create = async (json: ExternalReviewInput) => {
    const res = await admin()['external-reviews'].$post({ json });
    expect(res.status).toBe(201);
    return res.json();
  };

  it('records a review as sent, visible unless told otherwise, and announces the change', async () => {
    const res = await admin()['external-reviews'].$post({
      json: { reviewerName: ' Robert K. ', platform: 'avvo', rating: 4, content: 'Patient and thorough.', reviewUrl: ' https://www.avvo.com/review/1 ' },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      reviewerName: 'Robert K.',
      platform: 'avvo',
      rating: 4,
      reviewUrl: 'https://www.avvo.com/review/1',
      reviewedOn: null,
      isVisible: true,
    });
    const { db, t } = ctx().database;
    const stored = (await db.select().from(t.externalReviews)).find((r) => r.id === body.id)!;
    expect(stored).toMatchObject({ reviewerName: 'Robert K.', content: 'Patient and thorough.', reviewedOn: null, isVisible: true });
    expect(stored.createdAt).toBeInstanceOf(Date);
    expect(ctx().changes.at(-1)).toEqual({ topic: 'external-reviews' });
  });

  it('lists only visible reviews publicly, newest review first and undated last; all of them for the admin', async () => {
    const older = await create({ ...valid, reviewerName: 'Older O.', reviewedOn: '2025-01-02' });
    const undated = await create({ ...valid, reviewerName: 'Undated U.', reviewedOn: null });
    const newer = await create({ ...valid, reviewerName: 'Newer N.', platform: 'yelp', reviewUrl: 'https://www.yelp.com/biz/firm?hrid=1' });
    const hidden = await create({ ...valid, reviewerName: 'Hidden H.', isVisible: false });
    const pub = await visitor()['external-reviews'].$get();
    expect(pub.status).toBe(200);
    const shown = await pub.json();
    const ids = shown.map((r) => r.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(undated.id));
    expect(Object.keys(shown[0]!).sort()).toEqual(['content', 'id', 'platform', 'rating', 'reviewUrl', 'reviewedOn', 'reviewerName']);
    const all = await (await admin()['external-reviews'].$get()).json();
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([hidden.id, older.id, undated.id, newer.id]));
  });

  it('hides and shows a review with only isVisible, and edits every field', async () => {
    const created = await create(valid);
    const param = { id: created.id };
    const hidden = await admin()['external-reviews'][':id'].$put({ param, json: { isVisible: false } });
    expect(hidden.status).toBe(200);
    expect(await hidden.json()).toMatchObject({ isVisible: false, reviewerName: 'Jennifer M.', rating: 5, reviewedOn: '2026-03-04' });
    expect(ctx().changes.at(-1)).toEqual({ topic: 'external-reviews' });
    expect((await (await visitor()['external-reviews'].$get()).json()).map((r) => r.id)).not.toContain(created.id);
    const edited = await admin()['external-reviews'][':id'].$put({
      param,
      json: { ...valid, platform: 'martindale', rating: 3, reviewUrl: 'https://www.martindale.com/review/9', reviewedOn: '' },
    });
    expect(await edited.json()).toMatchObject({ platform: 'martindale', rating: 3, reviewedOn: null, isVisible: true });
  });

  it('refuses invalid input with a message per field and writes nothing', async () => {
    const before = await countRows(ctx(), 'externalReviews');
    const refused: [Record<string, unknown>, string][] = [
      [{ ...valid, rating: 6 }, 'rating'],
      [{ ...valid, rating: 0 }, 'rating'],
      [{ ...valid, rating: 4.5 }, 'rating'],
      [{ ...valid, rating: '5' }, 'rating'],
      [{ ...valid, rating: undefined }, 'rating'],
      [{ ...valid, reviewerName: '   ' }, 'reviewerName'],
      [{ ...valid, platform: 'trustpilot' }, 'platform'],
      [{ ...valid, content: '' }, 'content'],
      [{ ...valid, content: 'x'.repeat(2001) }, 'content'],
      [{ ...valid, reviewUrl: 'http://www.google.com/maps/reviews/1' }, 'reviewUrl'],
      [{ ...valid, reviewUrl: 'javascript:alert(1)' }, 'reviewUrl'],
      [{ ...valid, reviewUrl: 'https://user:pass@www.yelp.com/biz/x' }, 'reviewUrl'],
      [{ ...valid, reviewUrl: 'https://localhost/review' }, 'reviewUrl'],
      [{ ...valid, reviewUrl: '' }, 'reviewUrl'],
      [{ ...valid, reviewedOn: '2026-02-30' }, 'reviewedOn'],
      [{ ...valid, reviewedOn: '04/03/2026' }, 'reviewedOn'],
      [{ ...valid, reviewedOn: '1989-12-31' }, 'reviewedOn'],
      [{ ...valid, isVisible: 'yes' }, 'isVisible'],
    ];
    for (const [body, field] of refused) {
      // Outside the route's contract on purpose: what a broken or hostile client sends.
      const res = await admin()['external-reviews'].$post({ json: unchecked(body) });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      const answer = await errorOf(res);
      expect(answer.error).toBeTypeOf('string');
      expect(Object.keys(answer.fields), JSON.stringify(body).slice(0, 120)).toEqual([field]);
    }
    const everything = await errorOf(await admin()['external-reviews'].$post({ json: unchecked({}) }));
    expect(everything.fields).toMatchObject({
      reviewerName: 'Reviewer name is required',
      platform: 'Please choose the platform the review is on',
      rating: 'Rating must be a whole number from 1 to 5',
      content: 'Review text is required',
      reviewUrl: 'Review page URL is required',
    });
    expect((await errorOf(await admin()['external-reviews'].$post({ json: unchecked({ ...valid, reviewUrl: 'http://x.example/r' }) }))).fields.reviewUrl).toBe(
      'Review page URL must be an https:// address, e.g. https://www.google.com/maps/...',
    );
    const created = await create(valid);
    const emptyUpdate = await admin()['external-reviews'][':id'].$put({ param: { id: created.id }, json: {} });
    expect(emptyUpdate.status).toBe(400);
    const badUpdate = await admin()['external-reviews'][':id'].$put({ param: { id: created.id }, json: unchecked({ rating: 9 }) });
    expect((await errorOf(badUpdate)).fields).toEqual({ rating: 'Rating must be a whole number from 1 to 5' });
    expect(await countRows(ctx(), 'externalReviews')).toBe(before + 1);
    const [row] = (await (await admin()['external-reviews'].$get()).json()).filter((r) => r.id === created.id);
    expect(row).toMatchObject({ rating: 5 });
  });

  it('answers 404 for an unknown review on update and delete', async () => {
    const changes = ctx().changes.length;
    const update = await admin()['external-reviews'][':id'].$put({ param: { id: 'nope' }, json: { isVisible: true } });
    expect(update.status).toBe(404);
    expect((await errorOf(update)).error).toBe('External review not found');
    expect((await admin()['external-reviews'][':id'].$delete({ param: { id: 'nope' } })).status).toBe(404);
    expect(ctx().changes.length).toBe(changes);
  });

  it('deletes a review, which leaves the public list', async () => {
    const created = await create(valid);
    expect((await (await visitor()['external-reviews'].$get()).json()).map((r) => r.id)).toContain(created.id);
    const res = await admin()['external-reviews'][':id'].$delete({ param: { id: created.id } });
    expect(res.status).toBe(204);
    expect(ctx().changes.at(-1)).toEqual({ topic: 'external-reviews' });
    expect((await (await visitor()['external-reviews'].$get()).json()).map((r) => r.id)).not.toContain(created.id);
    expect((await (await admin()['external-reviews'].$get()).json()).map((r) => r.id)).not.toContain(created.id);
  });

  it('refuses the admin calls without an admin token', async () => {
    const before = await countRows(ctx(), 'externalReviews');
    expect((await visitor().admin['external-reviews'].$post({ json: valid })).status).toBe(401);
    expect((await visitor().admin['external-reviews'].$get()).status).toBe(401);
    expect((await testApi(ctx().app, { token: NON_ADMIN_TOKEN }).admin['external-reviews'].$post({ json: valid })).status).toBe(403);
    expect(await countRows(ctx(), 'externalReviews')).toBe(before);
  });
});

const root = fileURLToPath(new URL('../../', import.meta.url));

describe.each(['sqlite', 'postgres'] as const)('the home page follows the firm’s external reviews (%s, SAMPLE_CONTENT=true)', (dialect) => {
  let database: ServerDatabase;
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
    database = await serverDatabase(dialect);
    server = await startServerProcess({ ...database.env, SAMPLE_CONTENT: 'true' }, { site: true });
    token = await operatorAdminToken(server.url, database.env);
  }, 240_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await database?.drop();
  });

  const home = async () => (await fetch(`${server.url}/`)).text();
  const adminCall = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/admin/external-reviews${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  /** Republishing follows the admin's call (decision 007): asks until `check` holds, for up to 10 s. */
  async function eventually(check: (html: string) => boolean): Promise<string> {
    const until = Date.now() + 10_000;
    for (;;) {
      const html = await home();
      if (check(html) || Date.now() > until) return html;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const samplesShown = (html: string) => sampleExternalReviews.every((r) => html.includes(r.reviewerName));

  it('shows the samples while the firm has none, its own review with its link once added, the samples again once hidden, and none of it deleted', async () => {
    expect(samplesShown(await home())).toBe(true);

    const review = { ...valid, reviewerName: 'Quentin Q.', platform: 'yelp', reviewUrl: 'https://www.yelp.com/biz/firm?hrid=q1' };
    const created = await adminCall('POST', '', review);
    expect(created.status).toBe(201);
    const withReview = await eventually((html) => html.includes('Quentin Q.'));
    expect(withReview).toContain('Quentin Q.');
    expect(withReview).toContain('href="https://www.yelp.com/biz/firm?hrid=q1"');
    expect(withReview).toContain('Read on Yelp');
    expect(withReview).toContain('Read what clients have written about us on Yelp.');
    expect(withReview).toMatch(/<time datetime="2026-03-04">March 4, 2026<\/time>/i);
    // The firm's own stand in for the samples, and the filter offers only Yelp.
    expect(sampleExternalReviews.some((r) => withReview.includes(r.reviewerName))).toBe(false);
    expect(withReview).not.toContain('Google Reviews');

    expect((await adminCall('PUT', `/${created.body.id}`, { isVisible: false })).status).toBe(200);
    const hidden = await eventually((html) => !html.includes('Quentin Q.'));
    expect(hidden).not.toContain('Quentin Q.');
    expect(samplesShown(hidden)).toBe(true);

    expect((await adminCall('PUT', `/${created.body.id}`, { isVisible: true })).status).toBe(200);
    expect(await eventually((html) => html.includes('Quentin Q.'))).toContain('Quentin Q.');
    expect((await adminCall('DELETE', `/${created.body.id}`)).status).toBe(204);
    const deleted = await eventually((html) => !html.includes('Quentin Q.'));
    expect(deleted).not.toContain('Quentin Q.');
    expect((await (await fetch(`${server.url}/api/external-reviews`)).json()).length).toBe(0);
  });
});
