/**
 * SPEC §4 Theme: the stored mode's class before first paint (no flash of the wrong theme). The one
 * inline script of the site: ThemeScript.astro renders it and astro.config.mjs lists its hash in the
 * Content-Security-Policy, both from this text, so they cannot drift apart (decision 012).
 */
export const themeScript = "try{var t=localStorage.getItem('vite-ui-theme');if(t==='dark'||t==='warm')document.documentElement.classList.add(t)}catch(e){}";
