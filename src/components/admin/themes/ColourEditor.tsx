/**
 * The theme form's colours (decision 031): per variant (Light, and Dark and Warm when the theme
 * defines them), each colour variable with a native colour picker beside its HSL triplet, and the
 * radius. Everything edits the variables' JSON text, the form's one value (theme-checks.ts:
 * withVariable), so the pickers, the JSON field, the import and the export always agree. Pairs below
 * WCAG 2.2 AA are named for every variant (they warn; they do not block saving).
 */
import { AlertTriangle, Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { extraVariants, hexToHsl, hslToHex, themeColorKeys, type ThemeVariant, themeVariantLabels } from '../../../shared/theme-variables.ts';
import { Button } from '../../ui/button.tsx';
import { Input } from '../../ui/form.tsx';
import { VariantSwitch } from './HomePreview.tsx';
import { contrastWarnings, variantColours, variantsOf, withoutVariant, withVariable, withVariant } from './theme-checks.ts';
import type { VariablesObject } from './theme-file.ts';

const variantHelp: Record<ThemeVariant, string> = {
  light: 'What visitors see unless they choose Dark or Warm in the site’s theme menu.',
  dark: 'What visitors see when they choose Dark. Colours left unset are the light ones.',
  warm: 'What visitors see when they choose Warm. Colours left unset are the light ones.',
};

export function ColourEditor({
  text,
  variables,
  onChange,
  variant,
  onVariantChange,
}: {
  /** The variables' JSON text (the form's value). */
  text: string;
  /** That text parsed; null when it is not a variables object (the pickers wait for the JSON to be fixed). */
  variables: VariablesObject | null;
  onChange: (text: string) => void;
  variant: ThemeVariant;
  onVariantChange: (variant: ThemeVariant) => void;
}) {
  const id = useId();
  if (!variables) {
    return (
      <fieldset className="rounded-lg border border-border p-3 sm:p-4">
        <legend className="px-1 text-sm font-medium">Colours</legend>
        <p className="text-sm text-muted-foreground">Fix the CSS variables (JSON) below to use the colour pickers.</p>
      </fieldset>
    );
  }
  const defined = variantsOf(variables);
  const isDefined = defined.includes(variant);
  const own = variant === 'light' ? variables : variables[variant];
  const shown = variantColours(variables, variant);
  const label = themeVariantLabels[variant];

  return (
    <fieldset className="space-y-3 rounded-lg border border-border p-3 sm:p-4" aria-describedby={`${id}-help`}>
      <legend className="px-1 text-sm font-medium">Colours</legend>
      <VariantSwitch variants={['light', ...extraVariants]} value={variant} onChange={onVariantChange} label="Colours of" />
      <p id={`${id}-help`} className="text-sm text-muted-foreground">
        {variantHelp[variant]}
      </p>
      {!isDefined && variant !== 'light' ? (
        <div className="flex flex-col items-start gap-2 rounded-md border border-dashed border-border p-3">
          <p className="text-sm">
            This theme has no {label.toLowerCase()} colours, so the site’s theme menu does not offer {label}.
          </p>
          <Button variant="outline" onClick={() => onChange(withVariant(text, variant))}>
            <Plus aria-hidden="true" className="size-4" />
            Add {label} colours
          </Button>
          <p className="text-xs text-muted-foreground">
            {variant === 'dark' ? 'They start from the light colours with their lightness turned over.' : 'They start as a copy of the light colours.'}
          </p>
        </div>
      ) : (
        <>
          <ul aria-label={`${label} colours`} className="grid gap-2 md:grid-cols-2 md:gap-x-4">
            {themeColorKeys.map((key) => {
              const value = typeof own === 'object' && typeof own[key] === 'string' ? (own[key] as string) : '';
              const inherited = !value && variant !== 'light' ? shown[key] : undefined;
              const hex = hslToHex(value || shown[key] || '') ?? '#000000';
              return (
                <li key={key} className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <label htmlFor={`${id}-${key}`} className="basis-full font-mono text-xs [overflow-wrap:anywhere]">
                    {key}
                  </label>
                  <input
                    type="color"
                    aria-label={`Pick ${key}`}
                    value={hex}
                    onChange={(e) => {
                      const hsl = hexToHsl(e.target.value);
                      if (hsl) onChange(withVariable(text, variant, key, hsl));
                    }}
                    className="h-11 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1 sm:h-10"
                  />
                  <Input
                    id={`${id}-${key}`}
                    value={value}
                    placeholder={inherited ? `${inherited} (light)` : 'not set'}
                    spellCheck={false}
                    autoComplete="off"
                    aria-invalid={value !== '' && !hslToHex(value) ? true : undefined}
                    onChange={(e) => onChange(withVariable(text, variant, key, e.target.value.trim() === '' ? '' : e.target.value))}
                    className="min-w-0 flex-1 font-mono text-xs sm:text-xs"
                  />
                </li>
              );
            })}
          </ul>
          {variant === 'light' ? (
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <label htmlFor={`${id}-radius`} className="basis-full font-mono text-xs">
                radius (every variant; 0.125rem to 0.875rem)
              </label>
              <Input
                id={`${id}-radius`}
                value={typeof variables.radius === 'string' ? variables.radius : ''}
                placeholder="0.5rem"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => onChange(withVariable(text, 'light', 'radius', e.target.value.trim() === '' ? '' : e.target.value))}
                className="w-40 font-mono text-xs sm:text-xs"
              />
            </div>
          ) : (
            <Button variant="outline" className="text-destructive" onClick={() => onChange(withoutVariant(text, variant))}>
              <Trash2 aria-hidden="true" className="size-4" />
              Remove {label} colours
            </Button>
          )}
        </>
      )}
      <ContrastWarnings variables={variables} />
    </fieldset>
  );
}

/** SPEC §3 / DOMAIN.md: text pairs under 4.5:1 (and the ring and field borders under 3:1), per variant the theme defines. */
function ContrastWarnings({ variables }: { variables: VariablesObject }) {
  const warnings = variantsOf(variables).flatMap((variant) =>
    contrastWarnings(variantColours(variables, variant)).map((w) => ({ ...w, variant: themeVariantLabels[variant] })),
  );
  if (!warnings.length) return null;
  return (
    <div className="flex gap-2 rounded-md border border-border bg-muted p-3 text-sm">
      <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div>
        <p className="font-medium">Warning: low contrast (below WCAG 2.2 AA)</p>
        <ul className="mt-1 list-disc pl-5">
          {warnings.map((w) => (
            <li key={`${w.variant}-${w.text}-${w.surface}`}>
              {w.variant}: {w.text} on {w.surface}: {w.ratio}:1, needs {w.minimum}:1
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
