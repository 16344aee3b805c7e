/**
 * Connect with Google and Connect with Microsoft 365 (issue 20): what differs between the two
 * authorization-code flows. Both send PKCE (S256) and a `state`, and redirect back to this site's
 * /api/integrations/<provider>/callback, which must be registered with the provider exactly.
 */
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { IntegrationSettings } from '../deps.ts';
import { readConfigText } from '../calendar-sync/rest-calendar.ts';
import { GRAPH_DELEGATED_SCOPE } from '../calendar-sync/outlook.ts';
import { conflict } from '../http/errors.ts';

export const connectProviders = ['google', 'outlook'] as const;
export type ConnectProvider = (typeof connectProviders)[number];
export const isConnectProvider = (provider: string): provider is ConnectProvider => (connectProviders as readonly string[]).includes(provider);

/**
 * Google: the events (to write appointments), read-only (the calendar list for the picker, free/busy),
 * and openid email (the id_token names the account).
 */
export const GOOGLE_EVENTS_SCOPE = 'https://www.googleapis.com/auth/calendar.events';
export const GOOGLE_CONNECT_SCOPE = `openid email ${GOOGLE_EVENTS_SCOPE} https://www.googleapis.com/auth/calendar.readonly`;
/** Microsoft: the delegated calendar permission, offline_access for a refresh token, openid email for the account. */
export const MICROSOFT_CONNECT_SCOPE = `openid email ${GRAPH_DELEGATED_SCOPE}`;

export const providerNames: Record<ConnectProvider, string> = { google: 'Google', outlook: 'Microsoft 365' };
/** Where a user removes the app's access themselves (shown after Disconnect). */
export const accessPages: Record<ConnectProvider, string> = {
  google: 'https://myaccount.google.com/permissions',
  outlook: 'https://myaccount.microsoft.com',
};

/** The one redirect URI this site receives the provider's answer at. */
export const callbackUrl = (integrations: Pick<IntegrationSettings, 'siteUrl'>, provider: ConnectProvider) =>
  `${integrations.siteUrl.replace(/\/+$/, '')}/api/integrations/${provider}/callback`;

export interface ClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  authorizeUrl: string;
  tokenUrl: string;
  scope: string;
}

/**
 * The OAuth client a Connect uses, from the integration's opened config, or a 409 saying what to fix:
 * a missing client id or secret (and tenant for Microsoft), or a Google redirect_uri other than ours
 * (Google would refuse it with redirect_uri_mismatch after the admin signed in).
 */
export function clientConfig(provider: ConnectProvider, configText: string, integrations: IntegrationSettings): ClientConfig {
  const label = provider === 'google' ? 'Google Calendar' : 'Outlook';
  const ours = callbackUrl(integrations, provider);
  try {
    const config = readConfigText(configText, label);
    const clientId = config.required('client_id', provider === 'google' ? 'the OAuth client id' : 'the application (client) id');
    const clientSecret = config.required('client_secret', provider === 'google' ? 'the OAuth client secret' : 'a client secret of that application');
    if (provider === 'google') {
      const configured = config.optional('redirect_uri');
      if (configured !== null && configured !== ours) {
        throw conflict(
          `The configuration's redirect_uri is ${configured}, but this site receives Google's answer at ${ours}. Register ${ours} as an Authorized redirect URI of the OAuth client in Google Cloud, and put it in the configuration as "redirect_uri" (or leave redirect_uri blank).`,
        );
      }
      return {
        clientId,
        clientSecret,
        redirectUri: ours,
        authorizeUrl: integrations.googleAuthorizeUrl,
        tokenUrl: integrations.googleTokenUrl,
        scope: GOOGLE_CONNECT_SCOPE,
      };
    }
    const tenantId = config.required('tenant_id', 'the directory (tenant) id, or common');
    const base = `${integrations.microsoftLoginBase.replace(/\/+$/, '')}/${encodeURIComponent(tenantId)}/oauth2/v2.0`;
    return { clientId, clientSecret, redirectUri: ours, authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token`, scope: MICROSOFT_CONNECT_SCOPE };
  } catch (err) {
    if (err instanceof PermanentDeliveryError) throw conflict(`This integration cannot be connected yet. ${err.message}`);
    throw err;
  }
}

/** The provider's consent page for this authorization. */
export function authorizationUrl(provider: ConnectProvider, client: ClientConfig, state: string, codeChallenge: string): string {
  const url = new URL(client.authorizeUrl);
  const params: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: client.scope,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
    ...(provider === 'google'
      ? // offline + consent: Google sends a refresh token on every consent, not only the first.
        { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' }
      : { response_mode: 'query', prompt: 'select_account' }),
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
