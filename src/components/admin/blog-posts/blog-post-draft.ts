/**
 * A post's unsaved work kept on this device (issue 19: unsaved changes are never lost): written as it
 * is typed, offered back the next time the post's page opens (a closed tab, a crash, a phone that
 * dropped the page), gone once the post is saved or the changes are discarded. Per post, and one for
 * a new post.
 */
import type { BlogPost, BlogPostFormValues } from './blog-post-form.ts';

export interface KeptDraft {
  values: BlogPostFormValues;
  savedAt: string;
}

export const draftKey = (post: Pick<BlogPost, 'id'> | null) => `firm-admin:blog-post-draft:${post?.id ?? 'new'}`;

export function readDraft(key: string): KeptDraft | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as KeptDraft | null;
    return kept && typeof kept.values?.title === 'string' && typeof kept.values.content === 'string' && typeof kept.savedAt === 'string' ? kept : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, values: BlogPostFormValues, now = new Date()) {
  try {
    localStorage.setItem(key, JSON.stringify({ values, savedAt: now.toISOString() } satisfies KeptDraft));
  } catch {
    // Storage full or refused: the unsaved-changes prompt still guards the work.
  }
}

export function clearDraft(key: string) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): nothing was kept either.
  }
}
