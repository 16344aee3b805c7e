/** The admin navigation, drawn from admin-screens.ts; the current screen is marked for assistive tech. */
import { adminScreens, normalizeAdminPath } from './admin-screens.ts';

export default function AdminNav({ pathname }: { pathname: string }) {
  const current = normalizeAdminPath(pathname);
  return (
    <nav aria-label="Admin" className="-mx-4 mb-6 overflow-x-auto border-b border-border px-4">
      <ul className="flex min-w-max gap-1">
        {Object.entries(adminScreens).map(([path, screen]) => (
          <li key={path}>
            <a
              href={path}
              aria-current={path === current ? 'page' : undefined}
              className="inline-flex h-11 items-center border-b-2 border-transparent px-3 text-sm font-medium text-muted-foreground hover:text-foreground aria-[current=page]:border-primary aria-[current=page]:text-foreground"
            >
              {screen.nav}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
