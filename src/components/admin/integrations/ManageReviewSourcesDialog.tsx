/**
 * Manage Sources (SPEC §2 Review Platforms, §3 "Review source (local only)"): enable or disable the
 * five platforms and edit each one's labelled review page URLs: add, edit label and URL, remove
 * (offered only while the platform has more than one). Save Changes keeps the changes on this page,
 * closes and shows 'Settings Saved'; nothing is sent. Cancel or Escape drops them.
 */
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Input, Switch } from '../../ui/form.tsx';
import {
  addReviewUrl,
  canRemoveReviewUrl,
  removeReviewUrl,
  reviewPlatforms,
  setPlatformEnabled,
  updateReviewUrl,
  type ReviewPlatformKey,
  type ReviewSources,
} from './review-sources.ts';

export default function ManageReviewSourcesDialog({
  open,
  onOpenChange,
  sources,
  onSave,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sources: ReviewSources;
  onSave: (sources: ReviewSources) => void;
  trigger: ReactElement;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        wide
        title="Manage Review Sources"
        description="Choose the platforms reviews come from, and the review pages of each. These settings are kept on this page only."
      >
        <ReviewSourcesForm
          initial={sources}
          onSave={(next) => {
            onSave(next);
            onOpenChange(false);
            toast({ title: 'Settings Saved', description: 'Review source settings have been updated successfully' });
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** Ids for added entries, unique for the page's life (local state only, never sent). */
let addedCount = 0;

type FocusTarget = { kind: 'label'; id: string } | { kind: 'add'; platform: ReviewPlatformKey };

function ReviewSourcesForm({ initial, onSave }: { initial: ReviewSources; onSave: (sources: ReviewSources) => void }) {
  const [draft, setDraft] = useState(initial);
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // An added entry takes the focus; after a removal the focus goes to the platform's Add URL.
  useEffect(() => {
    if (!focusTarget) return;
    const selector = focusTarget.kind === 'label' ? `[data-url-label="${CSS.escape(focusTarget.id)}"]` : `[data-add-url="${focusTarget.platform}"]`;
    formRef.current?.querySelector<HTMLElement>(selector)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSave(draft);
      }}
      className="grid gap-4"
    >
      {reviewPlatforms.map(({ key, label }) => {
        const source = draft[key];
        const removable = canRemoveReviewUrl(source);
        return (
          <fieldset key={key} className="space-y-3 rounded-lg border border-border p-3 sm:p-4" data-platform={key}>
            <legend className="px-1 text-base font-semibold">{label}</legend>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Switch checked={source.enabled} onCheckedChange={(on) => setDraft((d) => setPlatformEnabled(d, key, on))} label="Enabled" />
              <p className="text-sm text-muted-foreground">
                {source.enabled ? `Reviews from ${label} are collected.` : `Reviews from ${label} are not collected.`}
              </p>
            </div>
            <ul className="space-y-3">
              {source.urls.map((entry, i) => {
                const name = entry.name.trim() || `URL ${i + 1}`;
                return (
                  <li
                    key={entry.id}
                    className="grid gap-3 border-t border-border pt-3 first:border-t-0 first:pt-0 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] sm:items-end sm:border-t-0 sm:pt-0"
                    data-testid="review-url"
                  >
                    <Field label="Label">
                      <Input
                        data-url-label={entry.id}
                        autoComplete="off"
                        value={entry.name}
                        onChange={(e) => {
                          const value = e.target.value;
                          setDraft((d) => updateReviewUrl(d, key, entry.id, { name: value }));
                        }}
                      />
                    </Field>
                    <Field label="URL">
                      <Input
                        type="url"
                        inputMode="url"
                        autoComplete="off"
                        spellCheck={false}
                        placeholder="https://"
                        value={entry.url}
                        onChange={(e) => {
                          const value = e.target.value;
                          setDraft((d) => updateReviewUrl(d, key, entry.id, { url: value }));
                        }}
                      />
                    </Field>
                    {removable && (
                      <Button
                        variant="outline"
                        className="text-destructive"
                        onClick={() => {
                          setDraft((d) => removeReviewUrl(d, key, entry.id));
                          setFocusTarget({ kind: 'add', platform: key });
                        }}
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                        Remove
                        <span className="sr-only">
                          {' '}
                          {name} from {label}
                        </span>
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
            <Button
              variant="outline"
              size="sm"
              className="h-10"
              data-add-url={key}
              onClick={() => {
                const id = `${key}-added-${++addedCount}`;
                setDraft((d) => addReviewUrl(d, key, id));
                setFocusTarget({ kind: 'label', id });
              }}
            >
              <Plus aria-hidden="true" className="size-4" />
              Add URL<span className="sr-only"> for {label}</span>
            </Button>
          </fieldset>
        );
      })}
      <DialogFooter action="Save Changes" />
    </form>
  );
}
