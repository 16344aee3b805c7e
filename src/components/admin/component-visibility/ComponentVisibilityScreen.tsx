/**
 * /admin/component-visibility (SPEC §2, §4 Component visibility): a card per site component with a
 * Visible/Hidden switch. Switches only change a local pending set (Modified) until Save Changes, which
 * sends one update per changed key, one at a time; the public pages hide what is hidden through
 * /theme.css once the server has it. If the server has no settings at all, the eight defaults are
 * created first.
 */
import { useQueryClient } from '@tanstack/react-query';
import AboutCard from '../AboutCard.tsx';
import { LoaderCircle, Save, Undo2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import AdminPage from '../AdminPage.tsx';
import { adminQueries, adminKeys, publicKeys, useAdminList, useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import { Switch } from '../../ui/form.tsx';
import { ErrorState, LoadingState } from '../../ui/states.tsx';
import {
  componentCards,
  createDefaultSettings,
  displayedVisibility,
  saveChanges,
  unsavedChangesLabel,
  withoutSaved,
  withSavedRow,
  withToggle,
  type ComponentCard,
  type PendingChanges,
} from './component-visibility.ts';

const listKeys = [adminKeys.componentVisibility, publicKeys.componentVisibility] as const;
const switchId = (componentKey: string) => `component-visibility-${componentKey}`;
const noChanges: PendingChanges = new Map();

export default function ComponentVisibilityScreen() {
  const queryClient = useQueryClient();
  const list = useAdminList(adminQueries.componentVisibility);
  const [pending, setPending] = useState<PendingChanges>(noChanges);
  // Where focus goes back to once the bar that held it (Cancel, Save Changes) disappears.
  const lastToggled = useRef<string | null>(null);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const createAttempted = useRef(false);

  const cards = useMemo(() => componentCards(list.data ?? []), [list.data]);

  const createDefaults = useAdminMutation({
    mutationFn: async () => {
      try {
        return await createDefaultSettings();
      } catch (err) {
        // Some may have been created before the failure: show what the server now has.
        await queryClient.invalidateQueries({ queryKey: adminKeys.componentVisibility });
        throw err;
      }
    },
    invalidates: listKeys,
    failure: 'Failed to create component setting',
  });

  // SPEC §4: no settings after loading, so create the eight defaults (once per visit, whatever happens).
  const { isSuccess, data } = list;
  const createMissing = createDefaults.mutate;
  useEffect(() => {
    if (isSuccess && data.length === 0 && !createAttempted.current) {
      createAttempted.current = true;
      createMissing();
    }
  }, [isSuccess, data, createMissing]);

  const save = useAdminMutation<PendingChanges, number>({
    mutationFn: (changes) =>
      saveChanges(cards, changes, (row) => {
        // Each change that went through is stored at once, so a failure later keeps only the rest.
        queryClient.setQueryData(adminKeys.componentVisibility, (old) => withSavedRow(old, row));
        setPending((current) => withoutSaved(current, row));
      }),
    invalidates: listKeys,
    success: 'Component visibility updated successfully',
    failure: 'Failed to update component visibility',
    onSuccess: () => {
      setPending(noChanges);
      setFocusKey(lastToggled.current);
    },
  });
  const saving = save.isPending;

  useEffect(() => {
    if (focusKey === null || saving) return;
    document.getElementById(switchId(focusKey))?.focus();
    setFocusKey(null);
  }, [focusKey, saving]);

  // Leaving the page would lose unsaved changes: let the browser ask first.
  const hasChanges = pending.size > 0;
  useEffect(() => {
    if (!hasChanges) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ''; // older browsers ask only when this is set
    };
    window.addEventListener('beforeunload', warn);
    // The sticky bar must not cover the focused switch (WCAG 2.2 focus not obscured): the browser
    // keeps this much room at the bottom when it scrolls a focused element into view.
    const root = document.documentElement;
    root.style.scrollPaddingBottom = '10rem';
    return () => {
      window.removeEventListener('beforeunload', warn);
      root.style.scrollPaddingBottom = '';
    };
  }, [hasChanges]);

  const toggle = (card: ComponentCard, isVisible: boolean) => {
    lastToggled.current = card.componentKey;
    setPending((current) => withToggle(current, card.componentKey, isVisible, card.stored));
  };

  const cancel = () => {
    setPending(noChanges);
    setFocusKey(lastToggled.current);
  };

  let content;
  if (list.isPending) content = <LoadingState />;
  else if (list.isError) content = <ErrorState message="The component settings could not be loaded." onRetry={() => void list.refetch()} />;
  else if (createDefaults.isPending) content = <LoadingState label="Creating the default components..." />;
  else
    content = (
      <ul className="grid gap-4 md:grid-cols-2" aria-label="Site components">
        {cards.map((card) => (
          <li key={card.componentKey}>
            <ComponentCardView card={card} pending={pending} disabled={saving} onToggle={(isVisible) => toggle(card, isVisible)} />
          </li>
        ))}
      </ul>
    );

  return (
    <AdminPage title="Component Visibility" description="Choose which parts of the public website visitors can see.">
      {content}
      <AboutVisibility />
      {/* Announced politely whenever the number of unsaved changes changes (kept mounted so it is heard). */}
      <p id="component-visibility-unsaved" role="status" className="sr-only">
        {hasChanges ? unsavedChangesLabel(pending.size) : ''}
      </p>
      {hasChanges && (
        <section
          aria-label="Unsaved changes"
          className="sticky bottom-3 z-10 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-background p-3 shadow-lg sm:p-4"
        >
          <p aria-hidden="true" className="font-medium">
            {unsavedChangesLabel(pending.size)}
          </p>
          <div className="flex flex-1 justify-end gap-2">
            <Button variant="outline" onClick={cancel} disabled={saving}>
              <Undo2 aria-hidden="true" className="size-4" />
              Cancel
            </Button>
            <Button
              // aria-disabled rather than disabled while saving, so keyboard focus stays on the button.
              aria-disabled={saving || undefined}
              className="aria-disabled:cursor-wait aria-disabled:opacity-60"
              onClick={() => {
                if (!saving) save.mutate(pending);
              }}
            >
              {saving ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
              ) : (
                <Save aria-hidden="true" className="size-4" />
              )}
              {saving ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </section>
      )}
    </AdminPage>
  );
}

function ComponentCardView({
  card,
  pending,
  disabled,
  onToggle,
}: {
  card: ComponentCard;
  pending: PendingChanges;
  disabled: boolean;
  onToggle: (isVisible: boolean) => void;
}) {
  const visible = displayedVisibility(card.componentKey, pending, card.stored);
  const modified = pending.has(card.componentKey);
  const state = visible ? 'Visible' : 'Hidden';
  return (
    <Card className={`flex h-full flex-col ${modified ? 'border-primary ring-1 ring-primary' : ''}`} data-component-card={card.componentKey}>
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 className="min-w-0 text-lg font-semibold leading-tight">{card.componentName}</h2>
          <div className="flex flex-wrap gap-2">
            {modified && <Badge variant="warning">Modified</Badge>}
            <Badge variant={visible ? 'success' : 'secondary'}>{visible ? 'Active' : 'Disabled'}</Badge>
          </div>
        </div>
        {card.description && <p className="text-sm text-muted-foreground">{card.description}</p>}
        <p className="text-xs text-muted-foreground">
          Key: <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-foreground">{card.componentKey}</code>
        </p>
        <div className="mt-auto border-t border-border pt-3">
          {/* The visible word is part of the name (WCAG 2.5.3), and the name says which component. */}
          <Switch
            id={switchId(card.componentKey)}
            checked={visible}
            onCheckedChange={onToggle}
            disabled={disabled}
            label={state}
            aria-label={`${card.componentName}: ${state}`}
          />
        </div>
      </div>
    </Card>
  );
}

/** SPEC §2: what hiding does and does not do. */
function AboutVisibility() {
  return (
    <AboutCard id="component-visibility-about" title="About component visibility">
      <li>Disabled components disappear from the public website but stay available here in the admin portal.</li>
      <li>Changes take effect only after you select Save Changes.</li>
      <li>The navigation and the footer are always shown and cannot be disabled.</li>
      <li>Re-enabling a component loses no data: its content comes back exactly as it was.</li>
    </AboutCard>
  );
}
