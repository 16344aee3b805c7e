/**
 * Stored XSS: the OWASP filter evasion vectors (a representative ~50) stored in blog
 * posts (title, excerpt, content), testimonials (name, content), external articles and a blog
 * source's name, contact messages (names, message), bookings (names, notes) and themes (display
 * name, description), then every page that shows them, public and admin, visited in Chromium with a
 * trap: `window.__pwned` and alert/confirm/prompt record a call, a dialog fails the test, and the
 * page (every frame) is searched for markup that could run (an inline handler, a javascript: URL, a
 * srcdoc, a script that calls the trap). Nothing may run and nothing executable may be in the DOM,
 * with or without the Content-Security-Policy. Hostile theme files (invalid JSON, script in the
 * names, CSS breakouts in the variables, a JSON bomb, 10 MB) are refused or stored inertly, and
 * /theme.css stays confined. Everything made here is deleted again (contact messages, which cannot
 * be deleted, are marked resolved).
 *
 * Desktop only: the rendering is the same at phone width, and both projects share one database.
 */
import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { book, freeSlot } from '../support/appointment-requests.ts';
import { expectToast, watchConsole } from '../support/e2e.ts';
import { feedPaths, startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { confinedThemeCss } from '../support/theme-css.ts';

// Desktop only (playwright.config.ts): the same rendering at phone width.
test.describe.configure({ mode: 'serial' });

const run = (n: number) => `window.__pwned(${n})`;

/** OWASP XSS filter evasion cheat sheet, condensed: each vector reports its number if it runs. */
const vectors: string[] = [
  `<script>${run(1)}</script>`,
  `<SCRIPT SRC=data:text/javascript,${run(2)}></SCRIPT>`,
  `<img src=x onerror="${run(3)}">`,
  `<IMG SRC=# onmouseover="${run(4)}">`,
  `<img src="x:${run(5)}" onerror="eval(src)">`,
  `<svg onload="${run(6)}">`,
  `<svg/onload=${run(7)}>`,
  `<svg><script>${run(8)}</script></svg>`,
  `<svg><animate onbegin=${run(9)} attributeName=x dur=1s>`,
  `<a href="javascript:${run(10)}">x10</a>`,
  `<a href="JaVaScRiPt:${run(11)}">x11</a>`,
  `<a href="jav&#x09;ascript:${run(12)}">x12</a>`,
  `<a href="jav&#x0A;ascript:${run(13)}">x13</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${run(14)}">x14</a>`,
  `<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A${run(15)}">x15</a>`,
  `<a href=" &#14;  javascript:${run(16)}">x16</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZCgxNyk8L3NjcmlwdD4=">x17</a>`,
  `<iframe srcdoc="<script>parent.__pwned(18)</script>"></iframe>`,
  `<iframe src="javascript:parent.__pwned(19)"></iframe>`,
  `<object data="javascript:${run(20)}"></object>`,
  `<embed src="javascript:${run(21)}">`,
  `<body onload=${run(22)}>`,
  `<details open ontoggle=${run(23)}>`,
  `<input autofocus onfocus=${run(24)}>`,
  `<select autofocus onfocus=${run(25)}></select>`,
  `<xss onfocus=${run(26)} autofocus tabindex=1>`,
  `<video><source onerror="${run(27)}"></video>`,
  `<marquee onstart=${run(28)}>`,
  `<form><button formaction=javascript:${run(29)}>x29</button></form>`,
  `<div style="background-image:url(javascript:${run(30)})">x30</div>`,
  `<div style="width:expression(${run(31)})">x31</div>`,
  `<style>@import 'javascript:${run(32)}';</style>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${run(33)}">`,
  `<base href="javascript:${run(34)}//">`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${run(35)}>`,
  `<noscript><p title="</noscript><img src=x onerror=${run(36)}>">`,
  `<svg></p><style><a id="</style><img src=x onerror=${run(37)}>">`,
  `"><script>${run(38)}</script>`,
  `'><img src=x onerror=${run(39)}>`,
  `" onmouseover="${run(40)}" x="`,
  `</title><script>${run(41)}</script>`,
  `</script><script>${run(42)}</script>`,
  `</textarea><script>${run(43)}</script>`,
  `<scr<script>ipt>${run(44)}</scr</script>ipt>`,
  `<img """><script>${run(45)}</script>">`,
  `{{constructor.constructor('${run(46)}')()}}`,
  `\${${run(47)}}`,
  `javascript:${run(48)}`,
  `<img src=1 onerror=alert(49)>`,
  `<a href="javascript&colon;${run(50)}">x50</a>`,
];

/** The vectors packed into pieces of at most `max` characters (a vector longer than that is left out). */
function pack(list: string[], max: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const v of list) {
    if (v.length > max) continue;
    if (current && current.length + 1 + v.length > max) {
      pieces.push(current);
      current = '';
    }
    current = current ? `${current} ${v}` : v;
  }
  if (current) pieces.push(current);
  return pieces;
}

// ---------------------------------------------------------------------------------------------
// The trap and the search for executable markup
// ---------------------------------------------------------------------------------------------

/** Records what runs: window.__pwned, alert, confirm, prompt (in every frame); any dialog. */
async function armTrap(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __xss: string[] };
    w.__xss = [];
    w.__pwned = (n: unknown) => w.__xss.push(String(n));
    for (const name of ['alert', 'confirm', 'prompt', 'print']) w[name] = (m?: unknown) => w.__xss.push(`${name}(${String(m)})`);
  });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return dialogs;
}

/**
 * Elements of the document that could run script: inline handlers and scripts that call the trap,
 * script URLs in any URL attribute (after the browser's own entity decoding, with the control
 * characters and spaces it ignores removed), srcdoc, script in styles, a meta refresh to script.
 * Runs in the page, so it is self-contained. Given `html`, searches that instead, parsed inert (a
 * template's content never runs): the control.
 */
function executableMarkup(html?: string): string[] {
  let scope: ParentNode = document;
  if (html !== undefined) {
    const template = document.createElement('template');
    template.innerHTML = html;
    scope = template.content;
  }
  const found: string[] = [];
  const calls = /__pwned|\b(alert|confirm|prompt)\s*\(/;
  const scriptUrl = /^(javascript|vbscript|livescript|data:text\/html)/;
  const urlAttributes = [
    'href',
    'src',
    'action',
    'formaction',
    'data',
    'xlink:href',
    'background',
    'poster',
    'codebase',
    'cite',
    'lowsrc',
    'dynsrc',
    'values',
    'from',
    'to',
    'by',
    'srcset',
  ];
  const squeeze = (v: string) => v.replace(/[\u0000-\u0020\u007f-\u00a0]+/g, '').toLowerCase();
  const describe = (el: Element, what: string) => `<${el.tagName.toLowerCase()}> ${what}`.slice(0, 200);
  for (const el of Array.from(scope.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') && calls.test(attr.value)) found.push(describe(el, `${name}="${attr.value}"`));
      if (urlAttributes.includes(name) && scriptUrl.test(squeeze(attr.value))) found.push(describe(el, `${name}="${attr.value}"`));
      if (name === 'srcdoc') found.push(describe(el, `srcdoc="${attr.value}"`));
      if (name === 'style' && /expression\s*\(|javascript:/i.test(attr.value)) found.push(describe(el, `style="${attr.value}"`));
    }
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (tag === 'script' && (!type || /javascript|ecmascript|module/.test(type)) && calls.test(el.textContent ?? ''))
      found.push(describe(el, el.textContent ?? ''));
    if (tag === 'style' && /javascript:|expression\s*\(/i.test(el.textContent ?? '')) found.push(describe(el, el.textContent ?? ''));
    if (tag === 'meta' && /refresh/i.test(el.getAttribute('http-equiv') ?? '') && /javascript:|data:/i.test(el.getAttribute('content') ?? ''))
      found.push(describe(el, 'refresh'));
    if (['iframe', 'frame', 'object', 'embed', 'base', 'applet'].includes(tag) && calls.test(el.outerHTML)) found.push(describe(el, el.outerHTML));
  }
  return found;
}

/** Nothing ran in any frame, no dialog opened, and no frame holds markup that could run. */
async function expectNothingRan(page: Page, dialogs: string[], where: string) {
  await page.waitForLoadState('load');
  for (const frame of page.frames()) {
    const ran = await frame.evaluate(() => (window as unknown as { __xss?: string[] }).__xss ?? []);
    expect(ran, `script ran on ${where} (frame ${frame.url()})`).toEqual([]);
    const markup = await frame.evaluate(executableMarkup, undefined);
    expect(markup, `executable markup on ${where} (frame ${frame.url()})`).toEqual([]);
  }
  expect(dialogs, `dialogs on ${where}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Arranging and cleaning up through the API
// ---------------------------------------------------------------------------------------------

async function created<T = { id: string }>(res: APIResponse): Promise<T> {
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as T;
}

async function removeAll(adminApi: APIRequestContext, paths: string[]) {
  for (const path of paths) {
    const res = await adminApi.delete(path);
    expect([204, 404], `DELETE ${path}`).toContain(res.status());
  }
}

/** Waits until a published page (a stored render, republished on change) carries the marker. */
async function published(page: Page, path: string, marker: string) {
  await expect.poll(async () => (await page.request.get(path)).text(), { timeout: 15_000, message: `${path} republished` }).toContain(marker);
}

const marker = () => `xssprobe${Date.now()}`;

test('the trap records what runs, and the search finds executable markup (the controls)', async ({ page }) => {
  const dialogs = await armTrap(page);
  await page.goto('/about');
  await page.evaluate(() => {
    (window as unknown as { __pwned(n: string): void }).__pwned('control');
    window.alert('control');
  });
  expect(await page.evaluate(() => (window as unknown as { __xss: string[] }).__xss)).toEqual(['control', 'alert(control)']);
  expect(dialogs).toEqual([]);
  // Every vector, parsed as HTML the way innerHTML would (inert: a template's content never runs), is found.
  const found = await page.evaluate(executableMarkup, vectors.join('\n'));
  expect(found.length, found.join('\n')).toBeGreaterThanOrEqual(30);
  for (const vector of [vectors[2]!, vectors[11]!, vectors[13]!, vectors[17]!, vectors[29]!]) {
    expect((await page.evaluate(executableMarkup, vector)).length, vector).toBeGreaterThan(0);
  }
  // And the page as served has none.
  expect(await page.evaluate(executableMarkup, undefined)).toEqual([]);
});

test('odd addresses on the site answer without a 5xx (on PostgreSQL a NUL in an article slug made the API fail)', async ({ request }) => {
  for (const path of [
    '/blog/%00',
    '/blog/a%00b',
    '/blog/%ED%A0%80',
    '/blog/%ZZ',
    `/blog/${'x'.repeat(5_000)}`,
    '/blog/..%2F..%2Fetc%2Fpasswd',
    '/blog/%3Cscript%3E',
    '/admin/%00',
    '/%00',
    '/theme.css?%00',
  ]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(500);
  }
});

test('blog posts, testimonials, a blog source and its articles: nothing runs on /, /blog, the articles, /external-articles or their admin screens', async ({
  page,
  adminApi,
}) => {
  test.setTimeout(180_000);
  const consoleErrors = watchConsole(page);
  const dialogs = await armTrap(page);
  const tag = marker();
  const cleanup: string[] = [];
  let feeds: FeedServer | undefined;
  try {
    // Three posts (the home page shows three), every vector in the content, pieces in titles and excerpts.
    const titles = pack(vectors, 200 - tag.length - 10);
    const excerpts = pack(vectors, 500 - tag.length - 1);
    const posts: { id: string; slug: string; title: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const post = await created<{ id: string; slug: string; title: string }>(
        await adminApi.post('/api/admin/blog-posts', {
          data: {
            title: `${tag} post${i} ${titles[i % titles.length]}`,
            slug: `${tag}-post-${i}`,
            excerpt: `${tag} ${excerpts[i % excerpts.length]}`,
            content: `<p>${tag} article ${i}</p>\n${vectors.join('\n')}`,
            category: 'probate',
            isPublished: true,
          },
        }),
      );
      posts.push(post);
      cleanup.push(`/api/admin/blog-posts/${post.id}`);
    }
    // Three testimonials (the home page shows three), the vectors spread over names and contents.
    const names = pack(vectors, 100 - tag.length - 1);
    const contents = pack(vectors, 2000 - tag.length - 1);
    for (let i = 0; i < 3; i++) {
      const t = await created(
        await adminApi.post('/api/admin/testimonials', {
          data: {
            clientName: `${tag} ${names[i % names.length]}`,
            content: `${tag} ${contents[i % contents.length]}`,
            practiceArea: 'other',
            rating: 5,
            isPublished: true,
          },
        }),
      );
      cleanup.push(`/api/admin/testimonials/${t.id}`);
    }
    // A blog source with a hostile name whose feed carries hostile titles (written as text: &lt;...),
    // summaries and content (markup).
    feeds = await startFeedServer();
    feeds.items.length = 0;
    const feedTitles = pack(vectors, 150);
    for (let i = 0; i < 3; i++) {
      feeds.addItem({
        title: `${tag} news${i} ${feedTitles[i % feedTitles.length]!.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}`,
        summary: `${tag} ${vectors.slice(i * 15, i * 15 + 15).join(' ')}`,
        content: vectors.join('\n'),
        author: `${tag} ${vectors[0]}`,
        publishedAt: new Date(Date.now() - i * 60_000),
      });
    }
    const source = await created<{ id: string }>(
      await adminApi.post('/api/admin/blog-sources', {
        data: { name: `${tag} ${pack(vectors, 110 - tag.length)[0]}`, url: feeds.url(feedPaths.rss), displayLimit: 10 },
      }),
    );
    cleanup.push(`/api/admin/blog-sources/${source.id}`);
    await expect
      .poll(
        async () =>
          ((await (await adminApi.get('/api/admin/blog-sources')).json()) as { id: string; articleCount: number }[]).find((s) => s.id === source.id)
            ?.articleCount,
        {
          timeout: 20_000,
          message: 'the feed fetched',
        },
      )
      .toBe(3);

    // The public pages.
    for (const path of ['/', '/blog', ...posts.map((p) => `/blog/${p.slug}`), '/external-articles']) {
      await published(page, path, tag);
      await page.goto(path);
      await expect(page.getByText(tag).filter({ visible: true }).first()).toBeVisible();
      await expectNothingRan(page, dialogs, path);
    }
    // What the visitor reads is the text that was written (escaped, not stripped) in a testimonial;
    // a feed's title is plain text once fetched (its markup dropped, what was inside kept as text).
    await page.goto('/');
    await expect(page.locator('[data-component="testimonials"]')).toContainText(`${tag} ${contents[0]!.slice(0, 60)}`);
    await page.goto('/external-articles');
    await expect(page.getByRole('link', { name: new RegExp(`^${tag} news0`) })).toContainText(`${tag} news0 ${run(1)}`);
    // The post's title in <title>, its meta tags and its JSON-LD stays text.
    await page.goto(`/blog/${posts[0]!.slug}`);
    expect(await page.title()).toContain(`${tag} post0 ${titles[0]!.slice(0, 40)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(posts[0]!.title);

    // The admin screens.
    await openAdminScreen(page, '/admin', 'Admin Dashboard');
    await expect(page.getByText(tag).filter({ visible: true }).first()).toBeVisible();
    await expectNothingRan(page, dialogs, '/admin');

    await openAdminScreen(page, '/admin/blog-posts', 'Blog Posts');
    await expect(page.getByText(`${tag} post0`).first()).toBeVisible();
    await expectNothingRan(page, dialogs, '/admin/blog-posts');
    // The post's own page, its content in the rich-text editor.
    await page.getByRole('link', { name: `Edit ${posts[0]!.title}` }).click();
    await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(posts[0]!.title);
    await expectNothingRan(page, dialogs, 'the blog post page');

    await openAdminScreen(page, '/admin/testimonials', 'Testimonials');
    await expect(page.getByText(`${tag} ${names[0]}`).first()).toBeVisible();
    await expectNothingRan(page, dialogs, '/admin/testimonials');
    await page.getByRole('button', { name: `Edit testimonial from ${tag} ${names[0]}` }).click();
    await expect(page.getByRole('dialog').getByLabel(/Client Name/)).toHaveValue(`${tag} ${names[0]}`);
    await expectNothingRan(page, dialogs, 'the testimonial dialog');
    await page.keyboard.press('Escape');

    await openAdminScreen(page, '/admin/integrations', 'Integrations');
    await page.getByRole('tab', { name: 'Blog Sources', exact: true }).click();
    await expect(page.getByTestId('blog-source').filter({ hasText: tag })).toHaveCount(1);
    await expectNothingRan(page, dialogs, '/admin/integrations (Blog Sources)');
  } finally {
    await removeAll(adminApi, cleanup);
    await feeds?.stop();
  }
  // The vectors' <img src=x> survive sanitising as harmless relative images (an article's, an
  // external article's picture): their 404s are the only errors.
  consoleErrors.expectOnlyFailedRequests(404);
});

test('contact messages and bookings from the public: nothing runs on the dashboard, the submissions, the appointments or their details', async ({
  page,
  adminApi,
}) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page);
  const dialogs = await armTrap(page);
  const tag = marker();
  const names = pack(vectors, 100 - tag.length - 1);
  const notes = pack(vectors, 2000 - tag.length - 1);
  const submissions: string[] = [];
  let appointment: string | undefined;
  try {
    for (let i = 0; i < 2; i++) {
      const res = await page.request.post('/api/contact', {
        data: {
          firstName: `${tag} ${names[(2 * i) % names.length]}`,
          lastName: names[(2 * i + 1) % names.length],
          email: `${tag}-${i}@example.com`,
          phone: '',
          practiceArea: 'other',
          message: `${tag} ${vectors.join('\n')}`.slice(0, 5000),
        },
      });
      submissions.push((await created(res)).id);
    }
    const booking = await book(page.request, {
      firstName: `${tag} ${names[2 % names.length]}`,
      lastName: names[3 % names.length],
      email: `${tag}-booking@example.com`,
      phone: '',
      consultationType: 'initial',
      practiceArea: 'other',
      notes: `${tag} ${notes[0]}`,
      scheduledDate: await freeSlot(page.request),
    });
    appointment = booking.id;

    await openAdminScreen(page, '/admin', 'Admin Dashboard');
    await expect(page.getByText(tag).filter({ visible: true }).first()).toBeVisible();
    await expectNothingRan(page, dialogs, '/admin');

    await openAdminScreen(page, '/admin/contact-submissions', 'Contact Submissions');
    const submission = page.getByTestId('submission').filter({ hasText: `${tag}-0@example.com` });
    await expect(submission).toHaveCount(1);
    await expectNothingRan(page, dialogs, '/admin/contact-submissions');
    await submission.getByRole('button', { name: /^View Details/ }).click();
    const details = page.getByRole('dialog');
    await expect(details).toContainText(`${tag} ${vectors[0]}`);
    await expectNothingRan(page, dialogs, 'the submission details dialog');
    // Its footer Close (Escape would first close the toast that opening it may raise).
    await details.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(details).toHaveCount(0);

    await openAdminScreen(page, '/admin/appointments', 'Appointments');
    const row = page.getByTestId('appointment').filter({ hasText: tag });
    await expect(row).toHaveCount(1);
    await expectNothingRan(page, dialogs, '/admin/appointments');
    await row.getByRole('button', { name: /^View Details/ }).click();
    const appointmentDetails = page.getByRole('dialog');
    await expect(appointmentDetails).toContainText(`${tag} ${notes[0]!.slice(0, 80)}`);
    await expectNothingRan(page, dialogs, 'the appointment details dialog');
    await appointmentDetails.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(appointmentDetails).toHaveCount(0);
  } finally {
    if (appointment) await removeAll(adminApi, [`/api/admin/appointments/${appointment}`]);
    // Contact messages cannot be deleted (SPEC §7): read and resolved, out of the way of other specs.
    for (const id of submissions) {
      expect((await adminApi.put(`/api/admin/contact-submissions/${id}/read`)).status()).toBe(200);
      expect((await adminApi.put(`/api/admin/contact-submissions/${id}/resolved`)).status()).toBe(200);
    }
  }
  consoleErrors.expectNone();
});

test('themes: hostile names are text in the admin, hostile theme files are refused or stored inertly, /theme.css stays confined', async ({
  page,
  adminApi,
}) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page);
  const dialogs = await armTrap(page);
  const tag = marker();
  const variables = findThemeTemplate('professional-blue')!.cssVariables;
  const activeBefore = await (await page.request.get('/api/themes/active')).json();
  const cssBefore = await (await page.request.get('/theme.css')).text();
  const installed = async () =>
    ((await (await adminApi.get('/api/admin/themes')).json()) as { id: string; name: string; displayName: string }[]).filter(
      (t) => t.name.includes(tag) || t.displayName.includes(tag),
    );
  const cleanup: string[] = [];
  try {
    const displayNames = pack(vectors, 80 - tag.length - 1);
    const descriptions = pack(vectors, 500);
    for (let i = 0; i < 2; i++) {
      const theme = await created(
        await adminApi.post('/api/admin/themes', {
          data: {
            name: `${tag}-theme-${i}`,
            displayName: `${tag} ${displayNames[i % displayNames.length]}`,
            description: descriptions[i % descriptions.length],
            cssVariables: JSON.stringify(variables),
          },
        }),
      );
      cleanup.push(`/api/admin/themes/${theme.id}`);
    }
    await openAdminScreen(page, '/admin/themes', 'Themes');
    await expect(page.getByRole('list', { name: 'Installed themes' })).toContainText(`${tag} ${displayNames[0]}`);
    await expectNothingRan(page, dialogs, '/admin/themes');

    const importFile = async (name: string, contents: string | Buffer) => {
      const choosing = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Import Theme' }).click();
      await (await choosing).setFiles({ name, mimeType: 'application/json', buffer: Buffer.isBuffer(contents) ? contents : Buffer.from(contents) });
    };
    const hostileVariables = {
      ...variables,
      background: `0 0% 100%; } body { background: url(javascript:${run(60)}) } :root {`,
      primary: `</style><script>${run(61)}</script>`,
      'primary-foreground': `expression(${run(62)})`,
    };

    // Not a theme file: refused at once, nothing opens.
    for (const [name, contents] of [
      ['broken.json', `{"displayName":"${tag}","cssVariables":`],
      ['bomb.json', '['.repeat(10_000) + ']'.repeat(10_000)],
      ['deep-variables.json', JSON.stringify({ displayName: tag, description: '', cssVariables: '{"a":' + '['.repeat(4_000) + ']'.repeat(4_000) + '}' })],
      ['huge.json', Buffer.from(JSON.stringify({ displayName: tag, description: 'x'.repeat(10 * 1024 * 1024), cssVariables: variables }))],
      ['wrong-types.json', JSON.stringify({ displayName: { $gt: '' }, description: [vectors[0]], cssVariables: [vectors[1]] })],
    ] as const) {
      await importFile(name, contents);
      await expectToast(page, 'Error', 'Invalid theme file format');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expectNothingRan(page, dialogs, `the import of ${name}`);
    }

    // A theme file whose variables break out of CSS: the review shows the problems, and saving installs nothing.
    for (const cssVariables of [hostileVariables, JSON.stringify(hostileVariables)]) {
      await importFile('css-breakout.json', JSON.stringify({ displayName: `${tag} ${vectors[0]}`, description: vectors[2], cssVariables }));
      const review = page.getByRole('dialog', { name: 'Import Theme' });
      await expect(review.getByLabel('Display name')).toHaveValue(`${tag} ${vectors[0]}`);
      await expect(review).toContainText('background must be an HSL triplet');
      await expectNothingRan(page, dialogs, 'the review of a CSS breakout');
      await review.getByRole('button', { name: 'Save Theme' }).click();
      await expect(review).toBeVisible();
      await expectNothingRan(page, dialogs, 'the refused save of a CSS breakout');
      await review.getByRole('button', { name: 'Cancel' }).click();
      await expect(review).toHaveCount(0);
      expect(await installed()).toHaveLength(2);
    }

    // Script in the names with sound variables: stored as text, shown as text.
    const displayName = `${tag} </style><script>${run(63)}</script>`.slice(0, 80);
    const description = `<img src=x onerror=${run(64)}> "><svg onload=${run(65)}>`;
    await importFile('script-names.json', JSON.stringify({ displayName, description, cssVariables: variables }));
    const review = page.getByRole('dialog', { name: 'Import Theme' });
    await expect(review.getByLabel('Display name')).toHaveValue(displayName);
    await expect(review.getByLabel('Description')).toHaveValue(description);
    await expectNothingRan(page, dialogs, 'the review of script in the names');
    await review.getByRole('button', { name: 'Save Theme' }).click();
    await expectToast(page, 'Success', 'Theme imported successfully');
    const imported = (await installed()).find((t) => t.displayName === displayName);
    expect(imported, 'the imported theme').toBeTruthy();
    cleanup.push(`/api/admin/themes/${imported!.id}`);
    await expect(page.getByRole('list', { name: 'Installed themes' })).toContainText(displayName);
    await expectNothingRan(page, dialogs, '/admin/themes after the import');

    // The site's stylesheet: unchanged by any of it, and only declarations of known variables.
    expect(await (await page.request.get('/api/themes/active')).json()).toEqual(activeBefore);
    const css = await (await page.request.get('/theme.css')).text();
    expect(css).toBe(cssBefore);
    expect(css).toMatch(confinedThemeCss);
    expect(css).not.toMatch(/script|javascript|url\(|expression|body/i);
    expect(css, 'the default theme offers its dark and warm variants').toMatch(
      /^:root\{[^}]*--site-theme-variants:light dark warm[^}]*\}\n:root\.dark\{[^}]+\}\n:root\.warm\{[^}]+\}\n$/,
    );
  } finally {
    await removeAll(adminApi, cleanup);
  }
  expect(await installed()).toEqual([]);
  // The refused saves: the server's 400 behind the dialog's field errors, when the form let them through.
  consoleErrors.expectOnlyFailedRequests(400);
});
