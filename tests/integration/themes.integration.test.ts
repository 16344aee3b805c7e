import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { findThemeTemplate, type ThemeTemplate } from '../../src/shared/theme-templates.ts';
import { themeStylesheet } from '../../api/site/theme-css.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';
import { confinedThemeCss } from '../support/theme-css.ts';

const template = (name: string): ThemeTemplate => {
  const found = findThemeTemplate(name);
  if (!found) throw new Error(`no template ${name}`);
  return found;
};

/** The admin's Install button: a template as POST /api/admin/themes, cssVariables as a JSON string (SPEC §7). */
const installBody = (name: string, extra: Record<string, unknown> = {}) => {
  const tpl = template(name);
  return { name: tpl.name, displayName: tpl.displayName, description: tpl.description, cssVariables: JSON.stringify(tpl.cssVariables), ...extra };
};

async function storedThemes(ctx: TestContext) {
  const { db, t } = ctx.database;
  return db.select().from(t.themeSettings);
}

async function storedTheme(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.themeSettings).where(eq(t.themeSettings.id, id));
  return row;
}

async function activeNames(ctx: TestContext) {
  return (await storedThemes(ctx)).filter((r) => r.isActive).map((r) => r.name);
}

forEachDialect(
  'themes',
  (ctx) => {
    it('serves the seeded Professional Blue as the active theme', async () => {
      const res = await ctx().call('GET', '/api/themes/active');
      expect(res.status).toBe(200);
      const [seeded] = await storedThemes(ctx());
      expect(seeded).toMatchObject({ name: 'professional-blue', displayName: 'Professional Blue', isActive: true, isDefault: true });
      expect(res.body).toMatchObject({
        id: seeded!.id,
        name: 'professional-blue',
        displayName: 'Professional Blue',
        description: template('professional-blue').description,
      });
      expect(JSON.parse(res.body.cssVariables)).toEqual(template('professional-blue').cssVariables);
    });

    it('lists every theme with all its fields for the admin', async () => {
      const res = await ctx().admin('GET', '/api/admin/themes');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(await countRows(ctx(), 'themeSettings'));
      const seeded = res.body.find((r: { name: string }) => r.name === 'professional-blue');
      expect(Object.keys(seeded).sort()).toEqual([
        'createdAt',
        'cssVariables',
        'description',
        'displayName',
        'id',
        'isActive',
        'isDefault',
        'name',
        'updatedAt',
      ]);
      expect(seeded).toMatchObject({ isActive: true, isDefault: true, displayName: 'Professional Blue' });
    });

    it('installs a template as an inactive, non-default theme and stores exactly what was sent', async () => {
      const eventsBefore = ctx().changes.length;
      const body = installBody('modern-teal');
      const res = await ctx().admin('POST', '/api/admin/themes', body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'modern-teal', displayName: body.displayName, isActive: false, isDefault: false });
      const stored = await storedTheme(ctx(), res.body.id);
      expect(stored).toMatchObject({ name: 'modern-teal', displayName: body.displayName, description: body.description, isActive: false, isDefault: false });
      expect(JSON.parse(stored!.cssVariables)).toEqual(template('modern-teal').cssVariables);
      expect(stored!.createdAt).toBeInstanceOf(Date);
      // Installing does not change what the public site wears.
      expect(await activeNames(ctx())).toEqual(['professional-blue']);
      expect((await ctx().call('GET', '/api/themes/active')).body.name).toBe('professional-blue');
      expect(ctx().changes.length).toBe(eventsBefore);
    });

    it('refuses a second theme with the same name: 409 on the name field, nothing changed', async () => {
      const before = await storedThemes(ctx());
      const res = await ctx().admin('POST', '/api/admin/themes', installBody('modern-teal', { displayName: 'Teal Again' }));
      expect(res.status).toBe(409);
      expect(res.body.fields.name).toBeTypeOf('string');
      const after = await storedThemes(ctx());
      expect(after).toHaveLength(before.length);
      expect(after.find((r) => r.name === 'modern-teal')!.displayName).toBe(template('modern-teal').displayName);
    });

    it('rejects invalid themes with a message on the field and writes nothing', async () => {
      const before = await countRows(ctx(), 'themeSettings');
      const vars = template('coastal-sage').cssVariables;
      const withVars = (patch: Record<string, string>) => JSON.stringify({ ...vars, ...patch });
      const base = installBody('coastal-sage');
      const cases: [string, Record<string, unknown>, string][] = [
        ['name with spaces and capitals', { ...base, name: 'Coastal Sage' }, 'name'],
        ['name with an underscore', { ...base, name: 'coastal_sage' }, 'name'],
        ['name with a slash', { ...base, name: 'coastal/sage' }, 'name'],
        ['missing name', { ...base, name: undefined }, 'name'],
        ['missing displayName', { ...base, displayName: undefined }, 'displayName'],
        ['blank displayName', { ...base, displayName: '   ' }, 'displayName'],
        ['cssVariables not JSON', { ...base, cssVariables: '{background: 0 0% 100%' }, 'cssVariables'],
        ['cssVariables a JSON array', { ...base, cssVariables: '[]' }, 'cssVariables'],
        ['cssVariables an object instead of a JSON string', { ...base, cssVariables: vars }, 'cssVariables'],
        ['missing cssVariables', { ...base, cssVariables: undefined }, 'cssVariables'],
        ['unknown variable', { ...base, cssVariables: withVars({ 'font-family': 'Arial' }) }, 'cssVariables'],
        ['value breaking out of CSS', { ...base, cssVariables: withVars({ primary: 'red; } body { display:none' }) }, 'cssVariables'],
        ['HSL value with a trailing declaration', { ...base, cssVariables: withVars({ primary: '222 47% 11%; color: red' }) }, 'cssVariables'],
        ['hue out of range', { ...base, cssVariables: withVars({ primary: '400 50% 50%' }) }, 'cssVariables'],
        ['lightness out of range', { ...base, cssVariables: withVars({ primary: '200 50% 150%' }) }, 'cssVariables'],
        ['radius below 0.125rem', { ...base, cssVariables: withVars({ radius: '0.1rem' }) }, 'cssVariables'],
        ['radius above 0.875rem', { ...base, cssVariables: withVars({ radius: '0.9rem' }) }, 'cssVariables'],
        ['radius of 1rem', { ...base, cssVariables: withVars({ radius: '1rem' }) }, 'cssVariables'],
        ['radius in px', { ...base, cssVariables: withVars({ radius: '8px' }) }, 'cssVariables'],
        ['radius breaking out of CSS', { ...base, cssVariables: withVars({ radius: '0.5rem; } * { display:none' }) }, 'cssVariables'],
        ['isActive not a boolean', { ...base, isActive: 'yes' }, 'isActive'],
      ];
      for (const [label, body, field] of cases) {
        const res = await ctx().admin('POST', '/api/admin/themes', body);
        expect(res.status, label).toBe(400);
        expect(res.body.fields?.[field], label).toBeTypeOf('string');
      }
      expect(await countRows(ctx(), 'themeSettings')).toBe(before);
      expect((await storedThemes(ctx())).map((r) => r.name)).not.toContain('coastal-sage');
    });

    it('stores a theme with dark and warm variants; /theme.css then offers exactly those, each on its own class (decision 031)', async () => {
      const teal = template('modern-teal').cssVariables;
      const { dark, ...light } = teal;
      const warm = { background: '40 40% 96%', foreground: '24 38% 13%', primary: '186 80% 22%', 'primary-foreground': '0 0% 100%' };
      const res = await ctx().admin('POST', '/api/admin/themes', {
        name: 'variants-theme',
        displayName: 'Variants',
        cssVariables: JSON.stringify({ ...light, dark, warm }),
        isActive: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(JSON.parse((await storedTheme(ctx(), res.body.id))!.cssVariables)).toEqual({ ...light, dark, warm });
      const active = await ctx().call('GET', '/api/themes/active');
      const css = themeStylesheet(active.body.cssVariables);
      expect(css).toMatch(confinedThemeCss);
      const [root, darkBlock, warmBlock] = css.trim().split('\n');
      expect(root).toContain('--site-theme-variants:light dark warm');
      expect(root).toContain(`--primary:${light.primary}`);
      expect(darkBlock).toMatch(/^:root\.dark\{color-scheme:dark;/);
      expect(darkBlock).toContain(`--primary:${dark!.primary}`);
      // Warm sets four colours: the rest are the light ones (from :root), nothing else is written.
      expect(warmBlock).toBe(
        `:root.warm{color-scheme:light;--background:${warm.background};--foreground:${warm.foreground};--primary:${warm.primary};--primary-foreground:${warm['primary-foreground']}}`,
      );

      // Edited without its variants: the site no longer offers Dark or Warm.
      const changesBefore = ctx().changes.length;
      const edit = await ctx().admin('PUT', `/api/admin/themes/${res.body.id}`, { displayName: 'Variants', cssVariables: JSON.stringify(light) });
      expect(edit.status).toBe(200);
      expect(ctx().changes.slice(changesBefore)).toContainEqual(expect.objectContaining({ topic: 'themes' }));
      const after = themeStylesheet((await ctx().call('GET', '/api/themes/active')).body.cssVariables);
      expect(after).toMatch(/^:root\{color-scheme:light;--site-theme-variants:light;/);
      expect(after).not.toContain(':root.');
      expect((await ctx().admin('PUT', `/api/admin/themes/${(await storedThemes(ctx())).find((t) => t.isDefault)!.id}/activate`)).status).toBe(200);
      expect((await ctx().admin('DELETE', `/api/admin/themes/${res.body.id}`)).status).toBe(204);
    });

    it('refuses a variant that breaks the rules, naming it, and writes nothing', async () => {
      const before = await storedThemes(ctx());
      const { dark, ...light } = template('evergreen').cssVariables;
      const cases: [string, unknown, string][] = [
        [
          'a variant colour that breaks out of CSS',
          { ...light, dark: { ...dark, background: '0 0% 0%; } body { display:none' } },
          'dark.background must be an HSL triplet',
        ],
        ['an unknown variable in a variant', { ...light, dark: { ...dark, 'font-family': 'Arial' } }, 'Unknown theme variable "dark.font-family"'],
        ['a radius of its own', { ...light, dark: { ...dark, radius: '0.5rem' } }, 'Unknown theme variable "dark.radius"'],
        [
          'a variant without its text colour',
          { ...light, warm: { background: '40 40% 96%', primary: '0 0% 0%', 'primary-foreground': '0 0% 100%' } },
          'warm.foreground is required in the Warm variant',
        ],
        ['a variant that is not an object', { ...light, dark: '0 0% 0%' }, 'dark must be an object of colours (the Dark variant)'],
        ['a variant that is a list', { ...light, warm: [dark] }, 'warm must be an object of colours (the Warm variant)'],
        ['a variant of another name', { ...light, sepia: dark }, 'Unknown theme variable "sepia"'],
      ];
      for (const [label, variables, message] of cases) {
        const res = await ctx().admin('POST', '/api/admin/themes', { name: 'bad-variant', displayName: 'Bad', cssVariables: JSON.stringify(variables) });
        expect(res.status, label).toBe(400);
        expect(res.body.fields?.cssVariables, label).toContain(message);
      }
      expect(await storedThemes(ctx())).toEqual(before);
    });

    it('accepts the radius bounds 0.125rem and 0.875rem', async () => {
      const vars = template('evergreen').cssVariables;
      for (const [name, radius] of [
        ['radius-low', '0.125rem'],
        ['radius-high', '0.875rem'],
      ] as const) {
        const res = await ctx().admin('POST', '/api/admin/themes', {
          name,
          displayName: name,
          description: '',
          cssVariables: JSON.stringify({ ...vars, radius }),
        });
        expect(res.status, radius).toBe(201);
        expect(JSON.parse((await storedTheme(ctx(), res.body.id))!.cssVariables).radius).toBe(radius);
      }
    });

    it('makes a theme created with isActive true the only active one', async () => {
      const res = await ctx().admin('POST', '/api/admin/themes', installBody('evergreen', { isActive: true }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'evergreen', isActive: true, isDefault: false });
      expect(await activeNames(ctx())).toEqual(['evergreen']);
      expect((await ctx().call('GET', '/api/themes/active')).body).toMatchObject({ id: res.body.id, name: 'evergreen' });
      expect(ctx().changes.at(-1)).toEqual({ topic: 'themes' });
    });

    it('activates a theme: exactly one active afterwards, served publicly, change announced', async () => {
      const installed = await ctx().admin('POST', '/api/admin/themes', installBody('elegant-burgundy'));
      const eventsBefore = ctx().changes.length;
      const res = await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}/activate`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: installed.body.id, isActive: true });
      expect(await activeNames(ctx())).toEqual(['elegant-burgundy']);
      const pub = await ctx().call('GET', '/api/themes/active');
      expect(pub.body).toMatchObject({ id: installed.body.id, name: 'elegant-burgundy', displayName: template('elegant-burgundy').displayName });
      expect(JSON.parse(pub.body.cssVariables)).toEqual(template('elegant-burgundy').cssVariables);
      expect(ctx().changes.slice(eventsBefore)).toEqual([{ topic: 'themes' }]);

      // Activating the active one again keeps it the only one.
      expect((await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}/activate`)).status).toBe(200);
      expect(await activeNames(ctx())).toEqual(['elegant-burgundy']);
    });

    it('edits an installed theme: its name stays; the site changes at once only when it wears it; bad input changes nothing', async () => {
      const activeBefore = (await storedThemes(ctx())).find((r) => r.isActive)!;
      const installed = await ctx().admin('POST', '/api/admin/themes', installBody('mission-terracotta'));
      const variables = { ...template('mission-terracotta').cssVariables, primary: '150 60% 20%' };
      const edit = { displayName: 'Forest, darker', description: 'Our own green', cssVariables: JSON.stringify(variables) };
      let eventsBefore = ctx().changes.length;
      const res = await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}`, { ...edit, name: 'renamed' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        id: installed.body.id,
        name: 'mission-terracotta',
        displayName: 'Forest, darker',
        description: 'Our own green',
        isActive: false,
      });
      expect(JSON.parse((await storedTheme(ctx(), installed.body.id))!.cssVariables)).toEqual(variables);
      // Not worn: nothing to republish.
      expect(ctx().changes.slice(eventsBefore)).toEqual([]);

      // Worn: the public theme is the edited one, and the change is announced.
      await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}/activate`);
      eventsBefore = ctx().changes.length;
      const worn = { ...variables, primary: '150 70% 18%' };
      expect((await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}`, { ...edit, cssVariables: JSON.stringify(worn) })).status).toBe(200);
      expect(JSON.parse((await ctx().call('GET', '/api/themes/active')).body.cssVariables)).toEqual(worn);
      expect(ctx().changes.slice(eventsBefore)).toEqual([{ topic: 'themes' }]);

      // Left out, the description stays.
      expect(
        (await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}`, { displayName: 'Forest, darker', cssVariables: JSON.stringify(worn) })).body,
      ).toMatchObject({
        description: 'Our own green',
      });

      // Refused: a message on the field, and the stored theme as it was.
      const before = await storedTheme(ctx(), installed.body.id);
      for (const [body, field] of [
        [{ ...edit, cssVariables: '{"primary":"red"}' }, 'cssVariables'],
        [{ ...edit, displayName: '' }, 'displayName'],
      ] as const) {
        const refused = await ctx().admin('PUT', `/api/admin/themes/${installed.body.id}`, body);
        expect(refused.status).toBe(400);
        expect(refused.body.fields[field]).toBeTypeOf('string');
      }
      expect(await storedTheme(ctx(), installed.body.id)).toEqual(before);
      expect(await ctx().admin('PUT', '/api/admin/themes/no-such-theme', edit)).toMatchObject({ status: 404, body: { error: 'Theme not found' } });
      // The theme that was active before, again, for the tests after this one.
      await ctx().admin('PUT', `/api/admin/themes/${activeBefore.id}/activate`);
    });

    it('answers 404 when activating an unknown theme and leaves the active one alone', async () => {
      const before = await activeNames(ctx());
      const eventsBefore = ctx().changes.length;
      expect((await ctx().admin('PUT', '/api/admin/themes/no-such-theme/activate')).status).toBe(404);
      expect((await ctx().admin('PUT', `/api/admin/themes/${'x'.repeat(65)}/activate`)).status).toBe(404);
      expect(await activeNames(ctx())).toEqual(before);
      expect(before).toHaveLength(1);
      expect(ctx().changes.length).toBe(eventsBefore);
    });

    it('refuses to delete a default theme, even when it is not the active one', async () => {
      const seeded = (await storedThemes(ctx())).find((r) => r.name === 'professional-blue')!;
      expect(seeded).toMatchObject({ isDefault: true, isActive: false });
      const res = await ctx().admin('DELETE', `/api/admin/themes/${seeded.id}`);
      expect(res.status).toBe(409);
      expect(await storedTheme(ctx(), seeded.id)).toBeDefined();
    });

    it('refuses to delete the active theme', async () => {
      const active = (await storedThemes(ctx())).find((r) => r.isActive)!;
      expect(active.isDefault).toBe(false);
      const res = await ctx().admin('DELETE', `/api/admin/themes/${active.id}`);
      expect(res.status).toBe(409);
      expect(await storedTheme(ctx(), active.id)).toMatchObject({ isActive: true });
    });

    it('deletes an inactive custom theme, then answers 404 for it', async () => {
      const installed = await ctx().admin('POST', '/api/admin/themes', installBody('twilight-plum'));
      const before = await countRows(ctx(), 'themeSettings');
      const res = await ctx().admin('DELETE', `/api/admin/themes/${installed.body.id}`);
      expect(res.status).toBe(204);
      expect(await storedTheme(ctx(), installed.body.id)).toBeUndefined();
      expect(await countRows(ctx(), 'themeSettings')).toBe(before - 1);
      expect((await ctx().admin('DELETE', `/api/admin/themes/${installed.body.id}`)).status).toBe(404);
      expect((await ctx().admin('DELETE', '/api/admin/themes/no-such-theme')).status).toBe(404);
      expect(await countRows(ctx(), 'themeSettings')).toBe(before - 1);
    });

    it('keeps exactly one active theme when a delete and an activation of the same theme race', async () => {
      for (let i = 0; i < 5; i++) {
        const installed = await ctx().admin('POST', '/api/admin/themes', installBody('midnight-navy', { name: `race-${i}` }));
        const [del, act] = await Promise.all([
          ctx().admin('DELETE', `/api/admin/themes/${installed.body.id}`),
          ctx().admin('PUT', `/api/admin/themes/${installed.body.id}/activate`),
        ]);
        const stored = await storedTheme(ctx(), installed.body.id);
        if (del.status === 204) {
          expect(act.status).toBe(404);
          expect(stored).toBeUndefined();
        } else {
          expect([del.status, act.status]).toEqual([409, 200]);
          expect(stored).toMatchObject({ isActive: true });
        }
        expect(await activeNames(ctx())).toHaveLength(1);
      }
    });

    it('keeps exactly one active theme when several activations race', async () => {
      const ids: string[] = [];
      for (const name of ['race-a', 'race-b', 'race-c']) {
        ids.push((await ctx().admin('POST', '/api/admin/themes', installBody('minimal-monochrome', { name }))).body.id);
      }
      for (let i = 0; i < 3; i++) {
        const results = await Promise.all(ids.map((id) => ctx().admin('PUT', `/api/admin/themes/${id}/activate`)));
        expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
        const active = (await storedThemes(ctx())).filter((r) => r.isActive);
        expect(active).toHaveLength(1);
        expect(ids).toContain(active[0]!.id);
      }
    });
  },
  { seed: true },
);

forEachDialect('themes with no theme rows', (ctx) => {
  it('serves the built-in default template when no theme is stored', async () => {
    expect(await countRows(ctx(), 'themeSettings')).toBe(0);
    const res = await ctx().call('GET', '/api/themes/active');
    expect(res.status).toBe(200);
    const tpl = template('professional-blue');
    expect(res.body).toMatchObject({ id: null, name: 'professional-blue', displayName: tpl.displayName, description: tpl.description });
    expect(JSON.parse(res.body.cssVariables)).toEqual(tpl.cssVariables);
    // Reading it writes nothing.
    expect(await countRows(ctx(), 'themeSettings')).toBe(0);
  });

  it('still serves the built-in default while only inactive, non-default themes exist', async () => {
    const installed = await ctx().admin('POST', '/api/admin/themes', installBody('charcoal-gold'));
    expect(installed.status).toBe(201);
    const res = await ctx().call('GET', '/api/themes/active');
    expect(res.body).toMatchObject({ id: null, name: 'professional-blue' });
  });
});
