/**
 * SPEC §2 /admin/themes installed themes section: every stored theme with its Active and Default
 * badges, the visitor's choices it offers, Preview (the real home page in it, decision 031), Activate,
 * Edit (issue 19), Export (SPEC §9) and Delete. SPEC §4: a default theme cannot be deleted; the
 * server also refuses to delete the active one (the site is wearing it), so neither offers Delete.
 *
 * 'No custom themes installed yet' (SPEC §8) shows when every stored theme is a default one: a
 * "custom" theme is any theme an admin added (an installed template, a created or an imported
 * theme), as opposed to the default theme the site is seeded with (docs/decisions/004).
 */
import { Check, Download, Eye, Palette, Pencil, Trash2 } from 'lucide-react';
import { Button } from '../../ui/button.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { ErrorState, LoadingState } from '../../ui/states.tsx';
import { RadiusPreview, Swatches, VariantsNote } from './Swatches.tsx';
import { colourSwatches, GALLERY_SWATCHES, lightVariables, storedVariables } from './theme-checks.ts';
import type { AdminTheme } from './theme-file.ts';

/** Where the focus goes when the theme row that had it is deleted. */
export const INSTALLED_LIST_ID = 'installed-themes';

export default function InstalledThemes({
  themes,
  loading,
  failed,
  onRetry,
  onActivate,
  onExport,
  onEdit,
  onPreview,
  onDelete,
  activating,
}: {
  themes: AdminTheme[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  onActivate: (theme: AdminTheme) => void;
  onExport: (theme: AdminTheme) => void;
  onEdit: (theme: AdminTheme) => void;
  /** The real home page in this theme, for the admin only, before it is activated (decision 031). */
  onPreview: (theme: AdminTheme) => void;
  onDelete: (theme: AdminTheme) => void;
  activating: string | undefined;
}) {
  const custom = themes?.filter((t) => !t.isDefault) ?? [];
  return (
    <Card>
      <CardHeader title="Installed Themes" description="Themes stored on this site. The active theme is the one visitors see." />
      <CardContent className="space-y-4">
        {loading ? (
          <LoadingState />
        ) : failed || !themes ? (
          <ErrorState message="The installed themes could not be loaded." onRetry={onRetry} />
        ) : (
          <>
            {themes.length > 0 && (
              <ul
                id={INSTALLED_LIST_ID}
                tabIndex={-1}
                aria-label="Installed themes"
                className="grid gap-4 rounded-lg md:grid-cols-2 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring"
              >
                {themes.map((theme) => {
                  const variables = storedVariables(theme.cssVariables);
                  return (
                    <li key={theme.id} data-theme={theme.name} className="flex flex-col gap-3 rounded-lg border border-border p-4">
                      <div className="flex flex-wrap items-center gap-2">
                        <h3 className="font-semibold leading-tight">{theme.displayName}</h3>
                        {theme.isActive && (
                          <Badge variant="success">
                            <Check aria-hidden="true" className="mr-1 size-3" />
                            Active
                          </Badge>
                        )}
                        {theme.isDefault && <Badge variant="outline">Default</Badge>}
                      </div>
                      <p className="break-all font-mono text-xs text-muted-foreground">{theme.name}</p>
                      {theme.description && <p className="text-sm text-muted-foreground">{theme.description}</p>}
                      <Swatches swatches={colourSwatches(variables, GALLERY_SWATCHES)} label={`${theme.displayName} colours`} />
                      <RadiusPreview radius={lightVariables(variables).radius} />
                      <VariantsNote variables={variables} />
                      <div className="mt-auto flex flex-wrap gap-2 pt-1">
                        {!theme.isActive && (
                          <Button disabled={activating === theme.id} onClick={() => onActivate(theme)}>
                            {activating === theme.id ? 'Activating...' : 'Activate'}
                            <span className="sr-only"> {theme.displayName}</span>
                          </Button>
                        )}
                        <Button variant="outline" onClick={() => onPreview(theme)}>
                          <Eye aria-hidden="true" className="size-4" />
                          Preview
                          <span className="sr-only"> {theme.displayName}</span>
                        </Button>
                        <Button variant="outline" onClick={() => onEdit(theme)}>
                          <Pencil aria-hidden="true" className="size-4" />
                          Edit
                          <span className="sr-only"> {theme.displayName}</span>
                        </Button>
                        <Button variant="outline" onClick={() => onExport(theme)}>
                          <Download aria-hidden="true" className="size-4" />
                          Export
                          <span className="sr-only"> {theme.displayName}</span>
                        </Button>
                        {!theme.isDefault && !theme.isActive && (
                          <Button variant="outline" className="text-destructive" onClick={() => onDelete(theme)}>
                            <Trash2 aria-hidden="true" className="size-4" />
                            Delete
                            <span className="sr-only"> {theme.displayName}</span>
                          </Button>
                        )}
                      </div>
                      {!theme.isDefault && theme.isActive && (
                        <p className="text-xs text-muted-foreground">The active theme cannot be deleted; activate another theme first.</p>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            {custom.length === 0 && (
              <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-8 text-center">
                <Palette aria-hidden="true" className="size-8 text-muted-foreground" />
                <p className="font-semibold">No custom themes installed yet</p>
                <p className="max-w-md text-sm text-muted-foreground">Install a template above, create a custom theme or import a theme file.</p>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
