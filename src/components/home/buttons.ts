/** Button looks for links and buttons on the public pages (tokens only, so every theme applies). */
const base =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60';

export const buttonPrimary = `${base} bg-primary text-primary-foreground hover:bg-primary/90`;
export const buttonOutline = `${base} border border-primary bg-background text-primary hover:bg-muted`;
export const buttonMuted = `${base} border border-border bg-muted text-foreground hover:border-primary`;
