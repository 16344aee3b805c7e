/**
 * The one inline script of the site, in <head>: ThemeScript.astro renders it and astro.config.mjs
 * lists its hash in the Content-Security-Policy, both from this text, so they cannot drift apart
 * (decision 012). It does two things before anything is painted:
 * - SPEC §4 Theme: applies the stored mode's class (no flash of the wrong theme), unless the firm's
 *   theme did not offer that mode when last seen (`vite-ui-theme-offered`, written by
 *   header-menus.ts: decision 031): then the page stays light;
 * - keeps a tap on a header menu button (`data-early-tap`) that lands before header-menus.ts has
 *   run (a slow phone, a slow network): that module replays it when it starts, so no tap is lost.
 */
export const themeScript =
  "try{var t=localStorage.getItem('vite-ui-theme'),o=localStorage.getItem('vite-ui-theme-offered');if((t==='dark'||t==='warm')&&(o===null||(' '+o+' ').indexOf(' '+t+' ')>=0))document.documentElement.classList.add(t)}catch(e){}" +
  "window.__earlyTaps=[];document.addEventListener('click',function(e){var b=window.__earlyTaps&&e.target.closest&&e.target.closest('[data-early-tap]');if(b){window.__earlyTaps.push(b);e.preventDefault()}},true);";
