/**
 * The one source of button looks, for the React Button (./button.tsx) and for links that look like
 * buttons, in islands and .astro pages alike. Theme tokens only, so every site theme applies; the
 * focus ring is the site's own (:focus-visible in src/styles/global.css).
 *
 * Sizes: `sm`, `md` and `icon` are the admin's (one line, 44px high on phones for `md`); `lg` is the
 * public forms' and calls to action (44px at every width, the theme's radius), `xl` the same in the
 * page's text size, for a page's main calls to action.
 */
const variants = {
  default: 'bg-primary text-primary-foreground hover:bg-primary/90',
  secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
  outline: 'border border-input bg-background hover:bg-accent hover:text-accent-foreground',
  /** The brand's outline: a second call to action beside a `default` one. */
  'outline-primary': 'border border-primary bg-background text-primary hover:bg-accent hover:text-accent-foreground',
  ghost: 'hover:bg-accent hover:text-accent-foreground',
  destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
  /** On a primary-coloured band. */
  inverse: 'bg-primary-foreground text-primary hover:bg-primary-foreground/90',
  /** The outline on a primary-coloured band. */
  'outline-inverse': 'border border-primary-foreground hover:bg-primary-foreground hover:text-primary',
} as const;

const sizes = {
  sm: 'h-9 min-w-9 shrink-0 whitespace-nowrap rounded-md px-3 text-sm font-medium',
  md: 'h-11 shrink-0 whitespace-nowrap rounded-md px-4 text-sm font-medium sm:h-10',
  icon: 'size-10 shrink-0 rounded-md',
  lg: 'min-h-11 rounded-lg px-5 py-2 text-sm font-semibold',
  xl: 'min-h-11 rounded-lg px-5 py-2 font-semibold',
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

/** The classes of a button (or a link that looks like one); `extra` for its place (width, margins). */
export const buttonClass = (variant: ButtonVariant = 'default', size: ButtonSize = 'md', extra = '') =>
  `inline-flex items-center justify-center gap-2 transition-colors disabled:pointer-events-none disabled:opacity-60 ${variants[variant]} ${sizes[size]} ${extra}`.trim();
