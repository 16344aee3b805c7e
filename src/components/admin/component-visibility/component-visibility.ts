/**
 * The rules of the component visibility screen (SPEC §4 Component visibility), kept apart from the
 * React screen so they can be tested alone: which cards show, what each switch shows, and the calls
 * of SPEC §7 with the request-helper messages of SPEC §8.
 */
import type { z } from 'zod';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { componentCatalogue } from '../../../shared/constants.ts';
import type { componentVisibilityInput } from '../../../shared/schemas/component-visibility.ts';
import type { adminQueries, Row } from '../admin-api.ts';

/** A row of GET /api/admin/component-visibility (the table of SPEC §3), as the route answers it. */
export type ComponentSetting = Row<typeof adminQueries.componentVisibility>;

/** The body of POST /api/admin/component-visibility, every field given. */
export type ComponentSettingInput = Required<z.input<typeof componentVisibilityInput>>;

/** Unsaved switch positions by component key (SPEC §4: held locally until Save Changes). */
export type PendingChanges = ReadonlyMap<string, boolean>;

export interface ComponentCard extends Pick<ComponentSetting, 'componentKey' | 'componentName' | 'description'> {
  /** The stored row, when the server has one. */
  stored: ComponentSetting | undefined;
}

/**
 * One card per component: the catalogue's eight in catalogue order (even before the server has a row
 * for them), then any other component the server knows, in the server's order.
 */
export function componentCards(settings: readonly ComponentSetting[]): ComponentCard[] {
  const byKey = new Map(settings.map((s) => [s.componentKey, s]));
  const catalogueKeys = new Set<string>(componentCatalogue.map((c) => c.componentKey));
  return [
    ...componentCatalogue.map((c) => {
      const stored = byKey.get(c.componentKey);
      return {
        componentKey: c.componentKey,
        componentName: stored?.componentName ?? c.componentName,
        description: stored?.description || c.description,
        stored,
      };
    }),
    ...settings
      .filter((s) => !catalogueKeys.has(s.componentKey))
      .map((s) => ({ componentKey: s.componentKey, componentName: s.componentName, description: s.description, stored: s })),
  ];
}

/** SPEC §3: every catalogue component is visible by default; undefined for a key outside it. */
export function catalogueDefault(componentKey: string): boolean | undefined {
  return componentCatalogue.some((c) => c.componentKey === componentKey) ? true : undefined;
}

/** SPEC §4: the pending value, else the stored value, else the catalogue default, else visible. */
export function displayedVisibility(componentKey: string, pending: PendingChanges, stored: ComponentSetting | undefined): boolean {
  return pending.get(componentKey) ?? stored?.isVisible ?? catalogueDefault(componentKey) ?? true;
}

/**
 * A switch flipped to `isVisible`. Flipping it back to the saved position is no longer a change, so the
 * Modified badge and the count only ever name changes that saving would make.
 */
export function withToggle(pending: PendingChanges, componentKey: string, isVisible: boolean, stored: ComponentSetting | undefined): PendingChanges {
  const next = new Map(pending);
  const saved = stored?.isVisible ?? catalogueDefault(componentKey) ?? true;
  if (isVisible === saved) next.delete(componentKey);
  else next.set(componentKey, isVisible);
  return next;
}

/** A saved change leaves the pending set, unless the switch was moved again meanwhile. */
export function withoutSaved(pending: PendingChanges, saved: ComponentSetting): PendingChanges {
  if (pending.get(saved.componentKey) !== saved.isVisible) return pending;
  const next = new Map(pending);
  next.delete(saved.componentKey);
  return next;
}

export function unsavedChangesLabel(count: number): string {
  return `${count} unsaved change${count === 1 ? '' : 's'}`;
}

/** The list with one row replaced (or added), as the server now stores it. */
export function withSavedRow(settings: readonly ComponentSetting[] | undefined, row: ComponentSetting): ComponentSetting[] {
  const list = settings ?? [];
  return list.some((s) => s.componentKey === row.componentKey) ? list.map((s) => (s.componentKey === row.componentKey ? row : s)) : [...list, row];
}

/*
 * SPEC §8 request helper: an update failure throws 'Failed to update component visibility' with the
 * status text; a create failure throws 'Failed to create component setting'. The shared helper has
 * already read the response, so the status text is the status and the server's reason.
 */
function statusText(err: unknown): string {
  if (err instanceof ApiError) return `${err.status} ${err.details.error ?? err.body}`.trim();
  return err instanceof Error ? err.message : String(err);
}

/** PUT /api/admin/component-visibility/{componentKey} */
export async function updateComponentVisibility(componentKey: string, isVisible: boolean) {
  try {
    return await read(api.admin['component-visibility'][':componentKey'].$put({ param: { componentKey }, json: { isVisible } }));
  } catch (err) {
    throw new Error(`Failed to update component visibility: ${statusText(err)}`, { cause: err });
  }
}

/** POST /api/admin/component-visibility */
export async function createComponentSetting(json: ComponentSettingInput) {
  try {
    return await read(api.admin['component-visibility'].$post({ json }));
  } catch (err) {
    throw new Error('Failed to create component setting', { cause: err });
  }
}

/** SPEC §4: the server has no settings, so the page creates the eight defaults, one call each. */
export async function createDefaultSettings(): Promise<ComponentSetting[]> {
  const created: ComponentSetting[] = [];
  for (const c of componentCatalogue) {
    created.push(await createComponentSetting({ componentKey: c.componentKey, componentName: c.componentName, description: c.description, isVisible: true }));
  }
  return created;
}

/**
 * SPEC §4 Save Changes: one update per changed key, one at a time, in card order. `onSaved` hears of
 * each change as it lands, so a failure part-way keeps only the changes that did not go through.
 * A catalogue component the server has no row for (its defaults could not all be created) is created
 * with the chosen position instead, since there is nothing to update.
 */
export async function saveChanges(cards: readonly ComponentCard[], pending: PendingChanges, onSaved: (row: ComponentSetting) => void): Promise<number> {
  let saved = 0;
  for (const card of cards) {
    const isVisible = pending.get(card.componentKey);
    if (isVisible === undefined) continue;
    const row = card.stored
      ? await updateComponentVisibility(card.componentKey, isVisible)
      : await createComponentSetting({ componentKey: card.componentKey, componentName: card.componentName, description: card.description, isVisible });
    onSaved(row);
    saved += 1;
  }
  return saved;
}
