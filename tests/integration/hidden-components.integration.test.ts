/**
 * Hidden means gone (SPEC §3 catalogue, issue 19 item 3, decision 028): the real server with the
 * built site, on each dialect. With a component hidden, no page the site serves (every prerendered
 * page, every published one, the feed, the sitemap, the 404 page) carries its markup or a link to
 * its page, and its page answers 404; shown again, all of it comes back.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorAdminToken } from '../../bench/identity.ts';
import { walk } from '../../api/site/static-files.ts';
import { componentCatalogue } from '../../src/shared/constants.ts';
import { getOnce, serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const client = `${root}dist/client`;

const post = {
  title: 'What probate costs in California',
  slug: 'what-probate-costs',
  excerpt: 'Statutory fees, explained.',
  content: '<p>Try <a href="/probate-calculator">our probate calculator</a> before you call.</p>',
  category: 'probate',
  isPublished: true,
};

/** Every path the site serves a page at: each prerendered page, the published ones, and an unknown path. */
function sitePaths(): string[] {
  const prerendered = walk(client)
    .filter((f) => f.endsWith('.html') && !f.endsWith('/404.html'))
    .map((f) =>
      f
        .slice(client.length)
        .replace(/index\.html$/, '')
        .replace(/\.html$/, '')
        .replace(/(.)\/$/, '$1'),
    )
    .filter((p) => !p.startsWith('/admin'));
  return [...prerendered, '/', '/blog', '/external-articles', `/blog/${post.slug}`, '/rss.xml', '/sitemap.xml', '/no-such-page'];
}

/** Whether `text` links to `path` (relative or absolute) from an anchor or a head link other than the page's own canonical address. */
const linksTo = (text: string, path: string) => new RegExp(`<(a|link(?! rel="canonical"))\\b[^>]*href="(https?://[^"/]+)?${path}[/"?#]`).test(text);

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`on ${dialect}`, () => {
    let database: ServerDatabase;
    let server: ServerProcess;
    let token: string;

    beforeAll(async () => {
      execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
      database = await serverDatabase(dialect);
      server = await startServerProcess(database.env, { site: true });
      token = await operatorAdminToken(server.url, database.env);
      expect((await admin('POST', '/api/admin/blog-posts', post)).status).toBe(201);
    }, 240_000);

    afterAll(async () => {
      server?.child.kill('SIGTERM');
      await server?.exited;
      await database?.drop();
    });

    async function admin(method: string, path: string, body?: unknown) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    }
    const get = async (path: string) => {
      const res = await getOnce(`${server.url}${path}`, { redirect: 'manual', headers: { 'accept-encoding': 'br' } });
      return { status: res.status, text: await res.text(), keys: res.headers.get('surrogate-key') ?? '' };
    };
    const setVisible = async (componentKey: string, isVisible: boolean) =>
      expect((await admin('PUT', `/api/admin/component-visibility/${componentKey}`, { isVisible })).status).toBe(200);

    it('shows every component at first, with no marker left in any page', async () => {
      const calculator = await get('/probate-calculator');
      expect(calculator.status).toBe(200);
      expect(calculator.text).toContain('data-component="probate_calculator"');
      expect(calculator.text).not.toContain('The Probate Calculator Is Unavailable');
      expect((await get('/about')).text).toContain('href="/probate-calculator"');
      expect((await get(`/blog/${post.slug}`)).text).toContain('<a href="/probate-calculator">our probate calculator</a>');
      for (const path of sitePaths()) expect((await get(path)).text, path).not.toMatch(/<!--\/?(component|unless):/);
    });

    it('with the calculator hidden: no link to it and no calculator markup in any page, and its page says it is unavailable', async () => {
      await setVisible('probate_calculator', false);
      for (const path of sitePaths()) {
        const page = await get(path);
        expect(linksTo(page.text, '/probate-calculator'), path).toBe(false);
        expect(page.text, path).not.toContain('data-component="probate_calculator"');
        expect(page.text, path).not.toMatch(/<!--\/?(component|unless):/);
        if (path !== '/probate-calculator' && path !== '/no-such-page') expect(page.status, path).toBe(200);
      }
      const calculator = await get('/probate-calculator');
      expect(calculator.status).toBe(404);
      expect(calculator.text).toContain('The Probate Calculator Is Unavailable');
      expect(calculator.text).toContain('data-component="contact_form"');
      // Kept by a CDN, then purged by the change that shows it again.
      expect(calculator.keys.split(' ')).toContain('components');
      // A link the firm wrote in an article is unwrapped to its words.
      expect((await get(`/blog/${post.slug}`)).text).toContain('<p>Try our probate calculator before you call.</p>');
      // The sitemap is made again after the change (the pages are cut as they are sent).
      await expect.poll(async () => (await get('/sitemap.xml')).text, { timeout: 10_000 }).not.toContain('probate-calculator');
    });

    it('shown again, the calculator and every link to it come back', async () => {
      await setVisible('probate_calculator', true);
      const calculator = await get('/probate-calculator');
      expect(calculator.status).toBe(200);
      expect(calculator.text).toContain('data-component="probate_calculator"');
      expect(linksTo((await get('/')).text, '/probate-calculator')).toBe(true);
      await expect.poll(async () => (await get('/sitemap.xml')).text, { timeout: 10_000 }).toContain('/probate-calculator');
    });

    it('with every component hidden, none is in any page, their pages answer 404, and the site still stands', async () => {
      for (const { componentKey } of componentCatalogue) await setVisible(componentKey, false);
      for (const path of sitePaths()) {
        const page = await get(path);
        for (const { componentKey } of componentCatalogue) expect(page.text, `${componentKey} in ${path}`).not.toContain(`data-component="${componentKey}"`);
        expect(page.text, path).not.toContain('data-booking-trigger');
        for (const own of ['/probate-calculator', '/external-articles', `/blog/${post.slug}`, '/rss.xml'])
          expect(linksTo(page.text, own), `${own} in ${path}`).toBe(false);
      }
      for (const path of ['/probate-calculator', '/external-articles', `/blog/${post.slug}`, '/rss.xml', `/og/blog/${post.slug}.png`])
        expect((await get(path)).status, path).toBe(404);
      // What stands in for the contact form: how to reach the firm.
      const contact = await get('/contact');
      expect(contact.status).toBe(200);
      expect(contact.text).toContain('Call or e-mail us');
      for (const path of ['/', '/about', '/blog', '/attorneys']) expect((await get(path)).status, path).toBe(200);
      for (const gone of ['/probate-calculator', '/external-articles', `/blog/${post.slug}`])
        await expect.poll(async () => (await get('/sitemap.xml')).text, { timeout: 10_000, message: gone }).not.toContain(gone);
      for (const { componentKey } of componentCatalogue) await setVisible(componentKey, true);
      expect((await get(`/blog/${post.slug}`)).status).toBe(200);
      expect((await get('/contact')).text).toContain('data-component="contact_form"');
    });
  });
}
