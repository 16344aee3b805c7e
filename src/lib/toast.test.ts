import { afterEach, describe, expect, it } from 'vitest';
import { $toasts, dismiss, remove, toast, toastOnNextPage } from './toast.ts';

afterEach(() => remove());

describe('the toast queue (SPEC §4 Toasts, §9)', () => {
  it('keeps at most one toast: a new one replaces the old', () => {
    toast({ title: 'First' });
    toast({ title: 'Second', description: 'More', variant: 'destructive' });
    expect($toasts.get()).toEqual([expect.objectContaining({ title: 'Second', description: 'More', variant: 'destructive', open: true })]);
  });

  it('defaults to the default variant; update and dismiss act on the toast', () => {
    const t = toast({ title: 'Saved' });
    expect($toasts.get()[0]?.variant).toBe('default');
    t.update({ description: 'Done' });
    expect($toasts.get()[0]?.description).toBe('Done');
    t.dismiss();
    expect($toasts.get()[0]?.open).toBe(false);
  });

  it('dismiss() without an id closes every toast', () => {
    toast({ title: 'One' });
    dismiss();
    expect($toasts.get().every((t) => !t.open)).toBe(true);
  });

  it('a toast for the next page is shown now when there is no session storage', () => {
    toastOnNextPage({ title: 'Signed out' });
    expect($toasts.get()[0]?.title).toBe('Signed out');
  });
});
