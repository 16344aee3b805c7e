/**
 * Connect with Google / Microsoft 365 (issue 20): how a connection attempt ended. The callback
 * redirects to /admin/integrations?calendar=<code>&integration=<id>; the Calendar tab shows the
 * message. Fixed codes and texts: nothing the provider wrote travels in the URL.
 */
export const connectOutcomes = {
  connected: 'Connected. Choose the calendar that appointments go to.',
  denied: 'Access was not allowed at the sign-in page, so nothing was connected. Choose Connect again and allow access to connect the calendar.',
  'invalid-state':
    'This sign-in answer does not belong to a connection started on this site (its state is unknown or does not match). Nothing was connected; start again with Connect.',
  expired: 'The sign-in took longer than 10 minutes, so it expired. Nothing was connected; start again with Connect.',
  'state-used':
    'This sign-in answer was already used (a repeated or replayed sign-in). Nothing more was changed; start again with Connect if the calendar is not connected.',
  'browser-mismatch':
    'This sign-in was started in another browser or session (its connection cookie is missing or different). Nothing was connected; start again with Connect in this browser.',
  'code-refused':
    'The provider refused the sign-in code: it was already used, had expired, or did not match this connection’s PKCE verifier. Nothing was connected; start again with Connect.',
  'redirect-mismatch':
    'The provider refused this site’s redirect URI (redirect_uri_mismatch). Register the redirect URI the README names for this site in the app registration, then connect again. Nothing was connected.',
  'client-refused': 'The provider refused the client id or client secret. Check them with Edit Settings, then connect again. Nothing was connected.',
  'provider-down': 'The provider could not be reached to finish the sign-in. Nothing was connected; try Connect again in a few minutes.',
  'no-refresh-token':
    'The provider did not grant offline access (no refresh token), so the site could not keep the calendar in sync. Nothing was connected; connect again.',
  'scope-missing':
    'Access to the calendar’s events was not allowed (it was unticked on the consent page), so the site could not add appointments. Nothing was connected; connect again and allow access to the calendar.',
  'provider-error': 'The provider answered the sign-in with an error. Nothing was connected; try Connect again.',
  gone: 'The integration was deleted while it was being connected. Nothing was connected.',
} as const;

export type ConnectOutcome = keyof typeof connectOutcomes;

export const isConnectOutcome = (code: string | null): code is ConnectOutcome => code !== null && Object.hasOwn(connectOutcomes, code);
