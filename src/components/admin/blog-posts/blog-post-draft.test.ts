// @vitest-environment happy-dom
/** A post's unsaved work on this device (./blog-post-draft.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { clearDraft, draftKey, readDraft, writeDraft } from './blog-post-draft.ts';
import { blogPostFormValues } from './blog-post-form.ts';

afterEach(() => localStorage.clear());

describe('the kept draft', () => {
  it('one per post, and one for a new post', () => {
    expect(draftKey(null)).toBe('firm-admin:blog-post-draft:new');
    expect(draftKey({ id: 'p1' })).toBe('firm-admin:blog-post-draft:p1');
  });

  it('is read back as written, with when; cleared, it is gone', () => {
    const values = { ...blogPostFormValues(), title: 'Trusts', content: '<h2>Why</h2><p>Because.</p>' };
    writeDraft('k', values, new Date('2026-06-01T16:30:00.000Z'));
    expect(readDraft('k')).toEqual({ values, savedAt: '2026-06-01T16:30:00.000Z' });
    clearDraft('k');
    expect(readDraft('k')).toBeNull();
  });

  it('something else under the key (an older shape, broken JSON) is no draft', () => {
    for (const raw of ['not json', 'null', '{"values":{"title":1},"savedAt":"x"}', '{"values":{"title":"t"},"savedAt":"x"}']) {
      localStorage.setItem('k', raw);
      expect(readDraft('k'), raw).toBeNull();
    }
  });
});
