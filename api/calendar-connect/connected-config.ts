/**
 * A Google or Outlook integration's sealed config changed key by key (issue 20): the refresh token a
 * consent granted, a rotated one, the picked calendar, a disconnect. The config is opened, changed as
 * JSON and sealed again (every value that is not public stays sealed, docs/decisions/015), and written
 * only if nobody changed it meanwhile; a lost race is tried again on the newer text.
 */
import { calendarSettingsRepository } from '../calendar-settings/calendar-settings.repository.ts';
import { openConfig, sealConfig, type SecretOwner } from '../crypto/sealed-config.ts';
import { configKind } from '../crypto/secret-masking.ts';
import type { Deps } from '../deps.ts';

export type ConfigObject = Record<string, unknown>;

/** The opened config as an object; null when it is not a JSON object. */
export function parseConfigObject(text: string | null): ConfigObject | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ConfigObject) : null;
  } catch {
    return null;
  }
}

/** A text value of the config, trimmed; null when missing or blank. */
export const configText = (config: ConfigObject | null, key: string): string | null => {
  const value = config?.[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
};

/**
 * Applies `change` to the integration's opened config and stores it sealed. `change` returns the new
 * object, or null to leave it as it is. False when the integration no longer exists or `change`
 * declined. Throws UnreadableSecretError when the stored config does not open.
 */
export async function changeConnectedConfig(
  deps: Pick<Deps, 'database' | 'secrets'>,
  integrationId: string,
  change: (config: ConfigObject) => ConfigObject | null,
): Promise<boolean> {
  const repo = calendarSettingsRepository(deps.database);
  const owner: SecretOwner = { table: 'calendar-settings', id: integrationId };
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await repo.findById(integrationId);
    if (!row) return false;
    const current = parseConfigObject(openConfig(deps.secrets, row.config, owner));
    const next = change(current ?? {});
    if (!next) return false;
    const sealed = sealConfig(deps.secrets, JSON.stringify(next, null, 2), configKind('calendar', row.provider), owner);
    if (await repo.replaceConfig(integrationId, row.config, sealed)) return true;
  }
  throw new Error('The integration configuration kept changing while it was being saved; try again.');
}
