/**
 * /admin/themes (SPEC §2): import a theme file, the create-custom-theme dialog, the active theme
 * banner, the template gallery and list, and the installed themes. Activating a theme changes the
 * public site: the server republishes /theme.css and the stored pages (docs/decisions/007).
 */
import { useQuery } from '@tanstack/react-query';
import { Plus, Upload } from 'lucide-react';
import { useRef, useState, type ChangeEvent } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { defaultThemeName, findThemeTemplate, type ThemeTemplate } from '../../../shared/theme-templates.ts';
import AdminPage from '../AdminPage.tsx';
import { adminQueries, adminKeys, publicKeys, publicQueries, useAdminList, useAdminMutation, type QueryData } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import InstalledThemes, { INSTALLED_LIST_ID } from './InstalledThemes.tsx';
import TemplateGallery from './TemplateGallery.tsx';
import ThemeFormDialog, { type ThemeDialogMode } from './ThemeFormDialog.tsx';
import ThemePreviewDialog from './ThemePreviewDialog.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { themeVariantLabels } from '../../../shared/theme-variables.ts';
import { storedVariables, variantsOf } from './theme-checks.ts';
import {
  downloadThemeFile,
  formatVariables,
  installFailureMessage,
  INVALID_THEME_FILE,
  MAX_THEME_FILE_BYTES,
  parseThemeFile,
  templateInstallBody,
  themeExport,
  type AdminTheme,
  type ThemeDraft,
} from './theme-file.ts';

/** What GET /api/themes/active answers: the theme the public site wears (a built-in template, id null, when none is stored). */
type ActiveTheme = QueryData<typeof publicQueries.activeTheme>;

/** Activation changes what GET /api/themes/active answers (the banner) as well as the list. */
const afterActivation = [adminKeys.themes, publicKeys.activeTheme] as const;

/** The edit dialog's start: the theme as installed, its variables laid out as the form shows them. */
function editDraft(theme: AdminTheme): ThemeDraft {
  let variables: Record<string, string> = {};
  try {
    variables = JSON.parse(theme.cssVariables) as Record<string, string>;
  } catch {
    // Stored by the server's own rules, so always JSON; an empty start is shown otherwise.
  }
  return { name: theme.name, displayName: theme.displayName, description: theme.description ?? '', cssVariables: formatVariables(variables) };
}

export default function ThemesScreen() {
  const themes = useAdminList(adminQueries.themes);
  const active = useQuery(publicQueries.activeTheme);
  const [dialog, setDialog] = useState<{ mode: ThemeDialogMode; draft: ThemeDraft; themeId?: string } | null>(null);
  const [toDelete, setToDelete] = useState<AdminTheme | null>(null);
  const [previewing, setPreviewing] = useState<AdminTheme | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const focus = useReturnFocus();

  const install = useAdminMutation({
    mutationFn: async (template: ThemeTemplate) => read(api.admin.themes.$post({ json: templateInstallBody(template.name) })),
    invalidates: [adminKeys.themes],
    success: 'Theme template installed successfully',
    failure: installFailureMessage,
  });
  const activate = useAdminMutation({
    mutationFn: (theme: AdminTheme) => read(api.admin.themes[':id'].activate.$put({ param: { id: theme.id } })),
    invalidates: afterActivation,
    success: 'Theme activated successfully',
    failure: 'Failed to activate theme',
  });
  const remove = useAdminMutation({
    mutationFn: (theme: AdminTheme) => read(api.admin.themes[':id'].$delete({ param: { id: theme.id } })),
    invalidates: [adminKeys.themes],
    success: 'Theme deleted successfully',
    failure: 'Failed to delete theme',
  });

  const installed = themes.data ?? [];
  const byName = new Map(installed.map((t) => [t.name, t]));

  async function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again reads it again
    if (!file) return;
    const text = file.size <= MAX_THEME_FILE_BYTES ? await file.text().catch(() => null) : null;
    const draft = text === null ? null : parseThemeFile(text);
    if (!draft) {
      toast({ title: 'Error', description: INVALID_THEME_FILE, variant: 'destructive' });
      return;
    }
    setDialog({ mode: 'import', draft });
  }

  function onExport(theme: AdminTheme) {
    const { fileName, contents } = themeExport(theme);
    downloadThemeFile(fileName, contents);
    toast({ title: 'Theme exported', description: `${theme.displayName} was saved as ${fileName}` });
  }

  const closeDelete = () => setToDelete(null);

  function openCreate() {
    focus.remember();
    const start = findThemeTemplate(defaultThemeName)!;
    setDialog({ mode: 'create', draft: { name: '', displayName: '', description: '', cssVariables: formatVariables(start.cssVariables) } });
  }

  return (
    <AdminPage
      title="Themes"
      description="Choose how the public site looks: install and activate a template, create your own theme, or move themes between sites as files."
      actions={
        <>
          <Button
            variant="outline"
            onClick={() => {
              focus.remember();
              fileInput.current?.click();
            }}
          >
            <Upload aria-hidden="true" className="size-4" />
            Import Theme
          </Button>
          <input ref={fileInput} type="file" accept=".json,application/json" aria-label="Theme file to import" className="hidden" onChange={onFileChosen} />
          <Button onClick={openCreate}>
            <Plus aria-hidden="true" className="size-4" />
            Create Custom Theme
          </Button>
        </>
      }
    >
      <ActiveThemeBanner theme={active.data} loading={active.isPending} failed={active.isError} />

      <TemplateGallery
        ready={themes.isSuccess}
        installed={(template) => byName.get(template.name)}
        onInstall={(template) => install.mutate(template)}
        onActivate={(theme) => activate.mutate(theme)}
        installing={install.isPending ? install.variables?.name : undefined}
        activating={activate.isPending ? activate.variables?.id : undefined}
      />

      <InstalledThemes
        themes={themes.data}
        loading={themes.isPending}
        failed={themes.isError}
        onRetry={() => void themes.refetch()}
        onActivate={(theme) => activate.mutate(theme)}
        onExport={onExport}
        onEdit={(theme) => {
          focus.remember();
          setDialog({ mode: 'edit', themeId: theme.id, draft: editDraft(theme) });
        }}
        onPreview={(theme) => {
          focus.remember();
          setPreviewing(theme);
        }}
        onDelete={(theme) => {
          focus.remember();
          setToDelete(theme);
        }}
        activating={activate.isPending ? activate.variables?.id : undefined}
      />

      <ThemeFormDialog
        state={dialog}
        onClose={() => setDialog(null)}
        onCloseAutoFocus={(event) => focus.restore(event)}
        installedNames={installed.map((t) => t.name)}
      />

      <ThemePreviewDialog
        theme={previewing}
        onClose={() => setPreviewing(null)}
        onCloseAutoFocus={(event) => focus.restore(event)}
        onActivate={(theme) => activate.mutate(theme, { onSuccess: () => setPreviewing(null) })}
        activating={activate.isPending}
      />

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && closeDelete()}
        title="Delete theme?"
        description={toDelete ? `"${toDelete.displayName}" will be removed from this site. This cannot be undone; export it first to keep a copy.` : ''}
        pending={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete, { onSettled: closeDelete })}
        // A deleted theme's row is gone: the focus then goes to the list it was in.
        onCloseAutoFocus={(event) => focus.restore(event, () => document.getElementById(INSTALLED_LIST_ID))}
      />
    </AdminPage>
  );
}

/**
 * What visitors see, truthfully (decision 031): this theme on every public page, in its light colours,
 * and its dark or warm ones when they choose those in the site's theme menu, which offers only what the
 * theme defines.
 */
function visitorsSee(theme: ActiveTheme): string {
  const extra = variantsOf(storedVariables(theme.cssVariables)).filter((v) => v !== 'light');
  if (!extra.length) return 'Visitors see this theme on every public page, in its light colours: the site’s theme menu offers only Light.';
  const names = extra.map((v) => themeVariantLabels[v]);
  return `Visitors see this theme on every public page: its light colours, or its ${names.map((n) => n.toLowerCase()).join(' or ')} ones when they choose ${names.join(' or ')} in the site’s theme menu.`;
}

/** SPEC §2 active theme banner: the display name and description of the theme visitors see. */
function ActiveThemeBanner({ theme, loading, failed }: { theme: ActiveTheme | undefined; loading: boolean; failed: boolean }) {
  return (
    <Card className="border-2 border-primary/40">
      <section aria-labelledby="active-theme-title" className="flex flex-col gap-1 p-4 sm:p-6">
        <h2 id="active-theme-title" className="text-sm font-medium text-muted-foreground">
          Active Theme
        </h2>
        {loading ? (
          <p role="status">Loading...</p>
        ) : failed || !theme ? (
          <p role="alert">The active theme could not be loaded.</p>
        ) : (
          <div data-testid="active-theme">
            <p className="text-xl font-semibold">{theme.displayName}</p>
            {theme.description && <p className="text-muted-foreground">{theme.description}</p>}
            <p className="mt-1 text-sm text-muted-foreground">{visitorsSee(theme)}</p>
          </div>
        )}
      </section>
    </Card>
  );
}
