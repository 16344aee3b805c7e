/**
 * The real home page wearing a theme that visitors do not see yet (decision 031): a same-origin frame
 * of `/`, to which the variables are sent by postMessage; the page's own small script
 * (src/components/chrome/theme-preview.ts) wears them in that frame only. Nothing is stored: what
 * visitors see, /theme.css included, does not change. The theme's variants are chosen with
 * VariantSwitch, as a visitor chooses them in the site's theme menu.
 */
import { useEffect, useRef } from 'react';
import { PREVIEW_READY, PREVIEW_SHOW, type PreviewMessage, type ThemeVariant, themeVariantLabels } from '../../../shared/theme-variables.ts';
import type { VariablesObject } from './theme-file.ts';

/** Sends the frame the theme to wear, once its page listens (theme-preview.ts checks it again). */
function post(frame: HTMLIFrameElement | null, message: PreviewMessage | null) {
  const target = frame?.contentWindow;
  if (target && message) target.postMessage(message, location.origin);
}

export function HomePreview({ variables, variant, className = '' }: { variables: VariablesObject | null; variant: ThemeVariant; className?: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const latest = useRef<PreviewMessage | null>(null);
  latest.current = variables ? { type: PREVIEW_SHOW, variables, variant } : null;

  // The page in the frame says when it is ready (at first, and after each link followed inside it).
  useEffect(() => {
    const onMessage = (event: MessageEvent<unknown>) => {
      if (event.origin !== location.origin || event.source !== frame.current?.contentWindow) return;
      if ((event.data as { type?: unknown } | null)?.type === PREVIEW_READY) post(frame.current, latest.current);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // Every change is worn at once (a page not ready yet takes the latest when it is).
  const message = latest.current ? JSON.stringify(latest.current) : '';
  useEffect(() => {
    if (message) post(frame.current, JSON.parse(message) as PreviewMessage);
  }, [message]);

  return (
    <iframe
      ref={frame}
      src="/"
      title="Home page preview"
      data-testid="home-preview"
      className={`block h-[28rem] w-full rounded-md border border-border bg-background sm:h-[32rem] ${className}`}
    />
  );
}

/** Light, Dark, Warm: the variants the theme defines, one pressed (the one shown). */
export function VariantSwitch({
  variants,
  value,
  onChange,
  label,
}: {
  variants: readonly ThemeVariant[];
  value: ThemeVariant;
  onChange: (variant: ThemeVariant) => void;
  label: string;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex flex-wrap gap-1 rounded-md border border-border bg-muted p-1">
      {variants.map((variant) => (
        <button
          key={variant}
          type="button"
          aria-pressed={variant === value}
          onClick={() => onChange(variant)}
          className="min-h-10 rounded-sm px-3 text-sm font-medium text-foreground hover:bg-accent hover:text-accent-foreground aria-pressed:bg-background aria-pressed:font-semibold aria-pressed:shadow-sm focus-visible:outline-2 focus-visible:outline-ring"
        >
          {themeVariantLabels[variant]}
        </button>
      ))}
    </div>
  );
}
