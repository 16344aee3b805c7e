/**
 * Colour previews of a theme (SPEC §9): each swatch carries the variable's name in words, so nothing
 * is told by colour alone; the radius is shown as a value beside a shape drawn with it.
 */
import { cssColour, lightVariables, variantsOf, type Swatch } from './theme-checks.ts';
import { themeVariantLabels } from '../../../shared/theme-variables.ts';
import type { VariablesObject } from './theme-file.ts';

export function Swatches({ swatches, label, columns = 2 }: { swatches: Swatch[]; label: string; columns?: 2 | 3 }) {
  return (
    <ul aria-label={label} className={`grid gap-x-3 gap-y-1.5 ${columns === 3 ? 'grid-cols-2 sm:grid-cols-3' : 'grid-cols-2'}`}>
      {swatches.map((swatch) => (
        <li key={swatch.name} className="flex min-w-0 items-center gap-2">
          <span
            aria-hidden="true"
            className="size-5 shrink-0 rounded-sm border border-foreground/30"
            style={swatch.css ? { background: swatch.css } : { background: 'repeating-linear-gradient(45deg, transparent 0 3px, currentColor 3px 4px)' }}
          />
          <span className="min-w-0 font-mono text-xs [overflow-wrap:anywhere]" title={`${swatch.name}: ${swatch.value}`}>
            {swatch.name}
            <span className="sr-only">: {swatch.css ? swatch.value : `${swatch.value} (not a valid colour)`}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

export function RadiusPreview({ radius }: { radius: string | undefined }) {
  return (
    <span className="inline-flex items-center gap-2 text-xs text-muted-foreground">
      <span
        aria-hidden="true"
        className="size-5 border-2 border-foreground/60 bg-muted"
        style={{ borderRadius: radius && /^[\d.]+rem$/.test(radius) ? radius : undefined }}
      />
      Radius {radius ?? 'not set'}
    </span>
  );
}

/** Which of the visitor's choices the theme offers (decision 031): Light, and Dark and Warm when it defines them. */
export function VariantsNote({ variables }: { variables: VariablesObject }) {
  return (
    <p className="text-xs text-muted-foreground">
      Visitors can choose:{' '}
      {variantsOf(variables)
        .map((v) => themeVariantLabels[v])
        .join(', ')}
    </p>
  );
}

/** A small wordless picture of the theme: its surface, primary, secondary and accent at its radius (light colours). */
export function ThemePicture({ variables: all }: { variables: VariablesObject }) {
  const variables = lightVariables(all);
  const radius = variables.radius && /^[\d.]+rem$/.test(variables.radius) ? variables.radius : '0.5rem';
  const fill = (name: string) => cssColour(variables[name]);
  return (
    <div aria-hidden="true" className="flex h-16 items-end gap-2 rounded-md border border-border p-3" style={{ background: fill('background') }}>
      <span className="h-6 w-16" style={{ background: fill('primary'), borderRadius: radius }} />
      <span className="h-6 w-10" style={{ background: fill('secondary'), borderRadius: radius, border: `1px solid ${fill('border') ?? 'transparent'}` }} />
      <span className="h-6 w-6" style={{ background: fill('accent'), borderRadius: radius, border: `1px solid ${fill('border') ?? 'transparent'}` }} />
      <span className="ml-auto h-2 w-12 self-center rounded-full" style={{ background: fill('foreground') }} />
    </div>
  );
}
