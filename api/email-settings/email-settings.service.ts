/**
 * The email setting (SPEC §4): saved active at once, a new save replacing the existing one. Its
 * secrets are sealed before they are written and never shown in full (docs/decisions/015).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { emailSettingInput } from '../../src/shared/schemas/integrations.ts';
import { openConfig, sealConfig, writeBackErrors, type SecretOwner } from '../crypto/sealed-config.ts';
import { configKind, maskConfig } from '../crypto/secret-masking.ts';
import type { Deps } from '../deps.ts';
import { describeError } from '../deliveries/deliveries.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import { sendHeldEmail, sendTestEmail } from '../mail/mail.ts';
import { emailSettingsRepository } from './email-settings.repository.ts';

type EmailSettingInput = z.output<typeof emailSettingInput>;

const NOT_CONFIGURED = 'E-mail is not configured: configure it first.';

export function emailSettingsService(deps: Pick<Deps, 'database' | 'secrets' | 'clock' | 'integrations' | 'deliveries'>) {
  const { database, secrets } = deps;
  const repo = emailSettingsRepository(database);
  const owner = (id: string): SecretOwner => ({ table: 'email-settings', id });
  // Opened only to show the last 4 characters; a value that does not open shows as the mask alone.
  const masked = (row: { id: string; provider: string; config: string }) =>
    maskConfig(openConfig(secrets, row.config, owner(row.id), { lenient: true }), configKind('email', row.provider));
  return {
    active: repo.activeProvider,

    /** The configured provider and sender, its config masked; null when mail goes to the development outbox. */
    async current() {
      const row = await repo.active();
      return row
        ? { id: row.id, provider: row.provider, isActive: row.isActive, config: masked(row), createdAt: row.createdAt, updatedAt: row.updatedAt }
        : null;
    },

    /**
     * SPEC §4: saved active at once; a new save replaces the existing configuration (the repository
     * says how two saves racing still leave one). createdAt is the API host's clock: API containers
     * must keep their clocks in sync (NTP), or a save on a host running behind could lose to an
     * earlier save elsewhere.
     */
    async save(input: EmailSettingInput) {
      // Nothing shown masked may come back as the secret (api/crypto/sealed-config.ts).
      const writeBack = writeBackErrors({ config: ['Configuration', input.config] });
      if (writeBack) throw badRequest('Please check the highlighted fields.', writeBack);
      // The id is chosen here: the secrets are sealed for this row before it is written.
      const id = randomUUID();
      const config = sealConfig(secrets, input.config, configKind('email', input.provider), owner(id));
      const row = await repo.replace({ ...input, id, config });
      return { ...row, config: masked(row) };
    },

    /** Removes the setting: from now on mail is held in the development outbox. 404 when there was none. */
    async remove() {
      if (!(await repo.removeAll())) throw notFound('No email setting is configured.');
    },

    /**
     * Sends a test message through the active setting, now. 409 when none is configured; 502 with
     * the provider's refusal (its message names the problem and the fix, never a secret).
     */
    async sendTest(to: string | null) {
      if (!to) throw badRequest('Please enter the address to send the test to.', { to: 'Please enter a valid email address' });
      let sent: Awaited<ReturnType<typeof sendTestEmail>>;
      try {
        sent = await sendTestEmail(deps, to);
      } catch (err) {
        // Not queued: nothing will try again (the provider's wording may say it would).
        throw new HttpError(502, `The test e-mail was not sent: ${describeError(err).replace(/; will try again\b\.?/, '.')}`);
      }
      if (!sent) throw conflict(NOT_CONFIGURED);
      return { sentTo: to, provider: sent.provider };
    },

    /** Queues the held messages to be sent; 409 while e-mail is not configured (they would only be held again). */
    async sendHeld() {
      const queued = await sendHeldEmail(deps);
      if (queued === null) throw conflict(NOT_CONFIGURED);
      return { queued };
    },
  };
}
