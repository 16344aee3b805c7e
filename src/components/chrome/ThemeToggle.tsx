/**
 * SPEC §2 / §4 Theme: the 'Toggle theme' button and its menu of Light, Dark and Warm. The items are a
 * radio group (menuitemradio, aria-checked), so the current mode is announced and shown with a check
 * mark as well as a highlight (not by colour alone); any mode can be chosen directly from any other.
 * The button's icon follows the class on <html> through CSS, so it is right before hydration too.
 */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useStore } from '@nanostores/react';
import { Check, Moon, Sun, Sunset } from 'lucide-react';
import { $theme, isTheme, setTheme, themeLabels, themes, type Theme } from './theme-store.ts';

const icons: Record<Theme, typeof Sun> = { light: Sun, dark: Moon, warm: Sunset };

export default function ThemeToggle() {
  const theme = useStore($theme);

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="inline-flex size-10 items-center justify-center rounded-md border border-border bg-background text-foreground hover:bg-accent hover:text-accent-foreground">
        <Sun aria-hidden="true" className="size-5 dark:hidden warm:hidden" />
        <Moon aria-hidden="true" className="hidden size-5 dark:block" />
        <Sunset aria-hidden="true" className="hidden size-5 warm:block" />
        <span className="sr-only">Toggle theme</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-36 rounded-md border border-border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => isTheme(value) && setTheme(value)}>
            {themes.map((t) => {
              const Icon = icons[t];
              return (
                <DropdownMenu.RadioItem
                  key={t}
                  value={t}
                  className="relative flex cursor-pointer select-none items-center gap-2 rounded-sm py-2 pl-3 pr-8 text-sm focus-visible:-outline-offset-3 data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[state=checked]:font-semibold data-[state=checked]:bg-secondary data-[state=checked]:text-secondary-foreground data-[highlighted]:data-[state=checked]:bg-accent data-[highlighted]:data-[state=checked]:text-accent-foreground"
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {themeLabels[t]}
                  <DropdownMenu.ItemIndicator className="absolute right-2 inline-flex items-center">
                    <Check aria-hidden="true" className="size-4" />
                  </DropdownMenu.ItemIndicator>
                </DropdownMenu.RadioItem>
              );
            })}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
