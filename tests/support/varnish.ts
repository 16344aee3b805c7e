/**
 * Varnish with the shipped VCL in front of a test's backends: the same helper as
 * `npm run scale:demo`, scripts/varnish.ts. Debian's varnish and varnish-modules are required
 * (scripts/bootstrap.sh installs them): a test using this fails, not skips, without them.
 *
 *   const cdn = await startVarnish({ backends: [origin.url] });
 *   ... fetch(`${cdn.url}/about`) ...; await cdn.stats(); await cdn.stop();
 */
export { startVarnish, type Varnish, type VarnishOptions } from '../../scripts/varnish.ts';
