/**
 * SPEC §2 /admin/themes: the 15 built-in templates (SPEC §3) in gallery and list views, with search
 * (name and description) and a category filter (the 9 categories, or all). Gallery cards preview the
 * first 4 colour variables, list rows 6 (SPEC §9). A template not installed offers Install; an
 * installed one offers Activate (SPEC §4 Theme records).
 */
import { Check, LayoutGrid, List } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { themeCategories, themeTemplates, type ThemeTemplate } from '../../../shared/theme-templates.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { Field, Input, Select } from '../../ui/form.tsx';
import { RadiusPreview, Swatches, ThemePicture, VariantsNote } from './Swatches.tsx';
import { colourSwatches, filterTemplates, GALLERY_SWATCHES, LIST_SWATCHES, type CategoryFilter } from './theme-checks.ts';
import type { AdminTheme } from './theme-file.ts';

type View = 'gallery' | 'list';

export interface TemplateActions {
  installed: (template: ThemeTemplate) => AdminTheme | undefined;
  onInstall: (template: ThemeTemplate) => void;
  onActivate: (theme: AdminTheme) => void;
  /** The template being installed or the theme being activated, to show the pending label. */
  installing: string | undefined;
  activating: string | undefined;
  /** False until the installed themes are known: nothing can be offered before that. */
  ready: boolean;
}

export default function TemplateGallery(actions: TemplateActions) {
  const id = useId();
  const [view, setView] = useState<View>('gallery');
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<CategoryFilter>('all');
  const shown = filterTemplates(themeTemplates, search, category);

  return (
    <Card>
      <CardHeader
        title="Theme Templates"
        description={`${themeTemplates.length} built-in templates. Install one, then activate it to change the public site's colours.`}
      />
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <Field label="Search templates" className="sm:flex-1">
            <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name or description" />
          </Field>
          <Field label="Category" className="sm:w-52">
            <Select value={category} onChange={(e) => setCategory(e.target.value as CategoryFilter)}>
              <option value="all">All categories</option>
              {themeCategories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          </Field>
          <div role="group" aria-label="View" className="flex gap-1 self-start rounded-md border border-input p-1 sm:self-auto">
            <ViewButton current={view} value="gallery" onSelect={setView} icon={<LayoutGrid aria-hidden="true" className="size-4" />} label="Gallery" />
            <ViewButton current={view} value="list" onSelect={setView} icon={<List aria-hidden="true" className="size-4" />} label="List" />
          </div>
        </div>

        <p id={`${id}-count`} role="status" className="text-sm text-muted-foreground">
          Showing {shown.length} of {themeTemplates.length} templates
        </p>

        {shown.length === 0 ? (
          <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-10 text-center">
            <p className="font-semibold">No templates match your search</p>
            <Button
              variant="outline"
              onClick={() => {
                setSearch('');
                setCategory('all');
              }}
            >
              Clear Filters
            </Button>
          </div>
        ) : view === 'gallery' ? (
          <ul aria-label="Theme templates" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {shown.map((template) => (
              <li key={template.name} className="flex flex-col gap-3 rounded-lg border border-border p-4" data-template={template.name}>
                <ThemePicture variables={template.cssVariables} />
                <TemplateHeading template={template} />
                <p className="text-sm text-muted-foreground">{template.description}</p>
                <Swatches swatches={colourSwatches(template.cssVariables, GALLERY_SWATCHES)} label={`${template.displayName} colours`} />
                <RadiusPreview radius={template.cssVariables.radius} />
                <VariantsNote variables={template.cssVariables} />
                <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
                  <TemplateState template={template} actions={actions} />
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <ul aria-label="Theme templates" className="divide-y divide-border rounded-lg border border-border">
            {shown.map((template) => (
              <li
                key={template.name}
                className="grid gap-3 p-4 md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] md:items-center"
                data-template={template.name}
              >
                <div className="min-w-0 space-y-1">
                  <TemplateHeading template={template} />
                  <p className="text-sm text-muted-foreground">{template.description}</p>
                </div>
                <div className="space-y-2">
                  <Swatches swatches={colourSwatches(template.cssVariables, LIST_SWATCHES)} label={`${template.displayName} colours`} columns={3} />
                  <RadiusPreview radius={template.cssVariables.radius} />
                </div>
                <div className="flex flex-wrap items-center gap-2 md:justify-end">
                  <TemplateState template={template} actions={actions} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ViewButton({ current, value, onSelect, icon, label }: { current: View; value: View; onSelect: (v: View) => void; icon: ReactNode; label: string }) {
  const pressed = current === value;
  return (
    <Button
      variant={pressed ? 'secondary' : 'ghost'}
      size="sm"
      aria-pressed={pressed}
      onClick={() => onSelect(value)}
      className={`h-9 ${pressed ? 'ring-1 ring-foreground/40' : ''}`}
    >
      {icon}
      {label}
    </Button>
  );
}

function TemplateHeading({ template }: { template: ThemeTemplate }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h3 className="font-semibold leading-tight">{template.displayName}</h3>
      <Badge variant="outline">
        <span className="sr-only">Category: </span>
        {template.category}
      </Badge>
    </div>
  );
}

function TemplateState({ template, actions }: { template: ThemeTemplate; actions: TemplateActions }) {
  const theme = actions.installed(template);
  if (!actions.ready) return null;
  if (!theme) {
    const pending = actions.installing === template.name;
    return (
      <Button variant="outline" disabled={pending} onClick={() => actions.onInstall(template)}>
        {pending ? 'Installing...' : 'Install'}
        <span className="sr-only"> {template.displayName}</span>
      </Button>
    );
  }
  if (theme.isActive) {
    return (
      <>
        <Badge variant="success">
          <Check aria-hidden="true" className="mr-1 size-3" />
          Active
        </Badge>
        <Badge variant="secondary">Installed</Badge>
      </>
    );
  }
  const pending = actions.activating === theme.id;
  return (
    <>
      <Badge variant="secondary">Installed</Badge>
      <Button disabled={pending} onClick={() => actions.onActivate(theme)}>
        {pending ? 'Activating...' : 'Activate'}
        <span className="sr-only"> {template.displayName}</span>
      </Button>
    </>
  );
}
