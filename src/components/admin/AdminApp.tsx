/**
 * The admin SPA (mounted with client:only by src/pages/admin/[...path].astro, so none of it ships
 * with public pages). Every screen sits behind AdminGuard (SPEC §2 Admin routes); the screen is
 * chosen by path from admin-screens.ts, and an unknown path shows SPEC's not-found screen.
 */
import { lazy, Suspense, useMemo } from 'react';
import Toaster from '../ui/Toaster.tsx';
import AdminGuard from './AdminGuard.tsx';
import { findAdminScreen } from './admin-screens.ts';

export default function AdminApp() {
  const screen = findAdminScreen(window.location.pathname);
  const Screen = useMemo(() => (screen ? lazy(screen.load) : null), [screen]);

  return (
    <>
      <AdminGuard>
        {Screen ? (
          <Suspense fallback={<p role="status" className="text-muted-foreground">Loading...</p>}>
            <Screen />
          </Suspense>
        ) : (
          <AdminNotFound />
        )}
      </AdminGuard>
      <Toaster />
    </>
  );
}

function AdminNotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">404 Page Not Found</h1>
      <p className="text-muted-foreground">Did you forget to add the page to the router?</p>
      <p>
        <a href="/admin" className="text-primary underline underline-offset-4">
          Back to Admin Dashboard
        </a>
      </p>
    </div>
  );
}
