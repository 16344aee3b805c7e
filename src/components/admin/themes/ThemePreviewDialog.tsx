/**
 * An installed theme's Preview (decision 031): the real home page wearing it, in each variant it
 * defines, for the admin only; visitors keep the active theme. Activate is offered here too, so the
 * admin can decide with the page in front of them.
 */
import { useState } from 'react';
import type { ThemeVariant } from '../../../shared/theme-variables.ts';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { HomePreview, VariantSwitch } from './HomePreview.tsx';
import { storedVariables, variantsOf } from './theme-checks.ts';
import type { AdminTheme } from './theme-file.ts';

export default function ThemePreviewDialog({
  theme,
  onClose,
  onCloseAutoFocus,
  onActivate,
  activating,
}: {
  /** Open while there is a theme. */
  theme: AdminTheme | null;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
  onActivate: (theme: AdminTheme) => void;
  activating: boolean;
}) {
  return (
    <Dialog open={theme !== null} onOpenChange={(open) => !open && onClose()}>
      {theme && (
        <DialogContent
          wide
          onCloseAutoFocus={onCloseAutoFocus}
          title={`Preview: ${theme.displayName}`}
          description={
            theme.isActive
              ? 'The home page as visitors see it now, in each of the theme’s colour choices.'
              : 'The home page as visitors would see it with this theme. Only you see this preview: visitors keep the active theme until you activate this one.'
          }
        >
          <PreviewBody theme={theme} />
          <DialogFooter
            cancelLabel="Close"
            action={theme.isActive ? undefined : 'Activate'}
            onAction={() => onActivate(theme)}
            pending={activating}
            pendingLabel="Activating..."
          />
        </DialogContent>
      )}
    </Dialog>
  );
}

function PreviewBody({ theme }: { theme: AdminTheme }) {
  const variables = storedVariables(theme.cssVariables);
  const variants = variantsOf(variables);
  const [variant, setVariant] = useState<ThemeVariant>('light');
  return (
    <div className="space-y-3">
      <VariantSwitch variants={variants} value={variant} onChange={setVariant} label="Show the home page in" />
      {variants.length === 1 && <p className="text-sm text-muted-foreground">This theme has light colours only: the site’s theme menu offers only Light.</p>}
      <HomePreview variables={variables} variant={variant} />
    </div>
  );
}
