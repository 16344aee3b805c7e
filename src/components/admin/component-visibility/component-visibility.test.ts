import { afterEach, describe, expect, it, vi } from 'vitest';
import { componentCatalogue } from '../../../shared/constants.ts';
import {
  componentCards,
  createDefaultSettings,
  displayedVisibility,
  saveChanges,
  unsavedChangesLabel,
  withoutSaved,
  withSavedRow,
  withToggle,
  type ComponentSetting,
} from './component-visibility.ts';

const row = (componentKey: string, isVisible: boolean, extra: Partial<ComponentSetting> = {}): ComponentSetting => ({
  id: `id-${componentKey}`,
  componentKey,
  componentName: `Name of ${componentKey}`,
  description: `About ${componentKey}`,
  isVisible,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

afterEach(() => vi.unstubAllGlobals());

describe('componentCards', () => {
  it('lists the catalogue in its order, with stored rows, then keys the catalogue does not know', () => {
    const cards = componentCards([row('zz_extra', false), row('probate_calculator', false)]);
    expect(cards.map((c) => c.componentKey)).toEqual([...componentCatalogue.map((c) => c.componentKey), 'zz_extra']);
    expect(cards.find((c) => c.componentKey === 'probate_calculator')?.stored?.isVisible).toBe(false);
    expect(cards.find((c) => c.componentKey === 'testimonials')).toMatchObject({ componentName: 'Client Testimonials', stored: undefined });
  });
});

describe('displayedVisibility (SPEC §4: pending, else stored, else catalogue default, else visible)', () => {
  it('prefers the pending value', () => {
    expect(displayedVisibility('testimonials', new Map([['testimonials', false]]), row('testimonials', true))).toBe(false);
    expect(displayedVisibility('testimonials', new Map([['testimonials', true]]), row('testimonials', false))).toBe(true);
  });
  it('then the stored value', () => {
    expect(displayedVisibility('testimonials', new Map(), row('testimonials', false))).toBe(false);
  });
  it('then the catalogue default, then visible', () => {
    expect(displayedVisibility('testimonials', new Map(), undefined)).toBe(true);
    expect(displayedVisibility('not_in_catalogue', new Map(), undefined)).toBe(true);
  });
});

describe('pending changes', () => {
  it('a switch moved back to its saved position is no longer a change', () => {
    const stored = row('contact_form', true);
    const once = withToggle(new Map(), 'contact_form', false, stored);
    expect([...once]).toEqual([['contact_form', false]]);
    expect(withToggle(once, 'contact_form', true, stored).size).toBe(0);
  });
  it('a saved change leaves the set unless the switch moved again', () => {
    const pending = new Map([
      ['contact_form', false],
      ['testimonials', true],
    ]);
    expect([...withoutSaved(pending, row('contact_form', false))]).toEqual([['testimonials', true]]);
    expect(withoutSaved(pending, row('contact_form', true))).toBe(pending);
  });
  it('counts them in words', () => {
    expect(unsavedChangesLabel(1)).toBe('1 unsaved change');
    expect(unsavedChangesLabel(2)).toBe('2 unsaved changes');
  });
  it('replaces or adds a saved row', () => {
    expect(withSavedRow([row('a', true), row('b', true)], row('b', false)).map((r) => r.isVisible)).toEqual([true, false]);
    expect(withSavedRow(undefined, row('a', false))).toEqual([row('a', false)]);
  });
});

function stubFetch(answer: (url: string, init: RequestInit) => Response) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return answer(url, init);
    }),
  );
  return calls;
}

describe('saveChanges (SPEC §4: one update per changed key, one at a time)', () => {
  it('sends one PUT per change in card order and reports each as it lands', async () => {
    const calls = stubFetch((url, init) => Response.json(row(url.split('/').pop()!, (JSON.parse(String(init.body)) as { isVisible: boolean }).isVisible)));
    const cards = componentCards([row('testimonials', true), row('probate_calculator', true), row('contact_form', true)]);
    const saved: string[] = [];
    const count = await saveChanges(
      cards,
      new Map([
        ['contact_form', false],
        ['probate_calculator', false],
      ]),
      (r) => saved.push(r.componentKey),
    );
    expect(count).toBe(2);
    expect(calls).toEqual([
      { method: 'PUT', url: '/api/admin/component-visibility/probate_calculator', body: { isVisible: false } },
      { method: 'PUT', url: '/api/admin/component-visibility/contact_form', body: { isVisible: false } },
    ]);
    expect(saved).toEqual(['probate_calculator', 'contact_form']);
  });

  it('stops at a failure with the SPEC §8 text and the status, after reporting what went through', async () => {
    stubFetch((url) =>
      url.endsWith('contact_form')
        ? new Response(JSON.stringify({ error: 'Something went wrong' }), { status: 500, statusText: 'Internal Server Error' })
        : Response.json(row('probate_calculator', false)),
    );
    const cards = componentCards([row('probate_calculator', true), row('contact_form', true), row('practice_areas', true)]);
    const saved: string[] = [];
    const changes = new Map([
      ['probate_calculator', false],
      ['contact_form', false],
      ['practice_areas', false],
    ]);
    await expect(saveChanges(cards, changes, (r) => saved.push(r.componentKey))).rejects.toThrow(
      'Failed to update component visibility: 500 Something went wrong',
    );
    expect(saved).toEqual(['probate_calculator']);
  });

  it('creates a catalogue component the server has no row for', async () => {
    const calls = stubFetch(() => Response.json(row('newsletter_signup', false), { status: 201 }));
    await saveChanges(componentCards([]), new Map([['newsletter_signup', false]]), () => undefined);
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/admin/component-visibility',
        body: { componentKey: 'newsletter_signup', componentName: 'Newsletter Signup', description: expect.any(String), isVisible: false },
      },
    ]);
  });
});

describe('createDefaultSettings (SPEC §4: the eight defaults, one create call each)', () => {
  it('posts every catalogue component as visible', async () => {
    const calls = stubFetch((_url, init) =>
      Response.json(row((JSON.parse(String(init.body)) as { componentKey: string }).componentKey, true), { status: 201 }),
    );
    await createDefaultSettings();
    expect(calls.map((c) => c.method)).toEqual(Array(8).fill('POST'));
    expect(calls.map((c) => c.body)).toEqual(componentCatalogue.map((c) => ({ ...c, isVisible: true })));
  });

  it("fails with 'Failed to create component setting'", async () => {
    stubFetch(() => new Response('', { status: 500, statusText: 'Internal Server Error' }));
    await expect(createDefaultSettings()).rejects.toThrow(/^Failed to create component setting$/);
  });
});
