/**
 * The admin SPA (mounted with client:only by src/pages/admin/[...path].astro, so none of it ships
 * with public pages). Every screen sits behind AdminGuard (SPEC §2 Admin routes); the screen is
 * chosen by path from admin-screens.ts, and an unknown path shows SPEC's not-found screen. One query
 * client per page load, with the SPEC §7 data-fetch defaults. `sampleContent`: the built-in samples
 * the public site may show (./sample-content.ts), given by the page.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { createQueryClient } from '../../lib/api-client.ts';
import Toaster from '../ui/Toaster.tsx';
import AdminGuard from './AdminGuard.tsx';
import AdminNav from './AdminNav.tsx';
import { findAdminScreen, normalizeAdminPath } from './admin-screens.ts';
import { SampleContentContext, type SampleCounts } from './sample-content.ts';
import { LoadingState } from '../ui/states.tsx';

export default function AdminApp({ sampleContent = null }: { sampleContent?: SampleCounts | null }) {
  const pathname = window.location.pathname;
  const screen = useMemo(() => findAdminScreen(pathname), [pathname]);
  const Screen = useMemo(() => (screen ? lazy(screen.load) : null), [screen]);
  const [queryClient] = useState(createQueryClient);

  return (
    <QueryClientProvider client={queryClient}>
      <SampleContentContext value={sampleContent}>
        <AdminGuard>
          <AdminNav current={screen?.section ?? null} within={!!screen && screen.section !== normalizeAdminPath(pathname)} />
          {Screen ? (
            <Suspense fallback={<LoadingState />}>
              <Screen params={screen!.params} />
            </Suspense>
          ) : (
            <AdminNotFound />
          )}
        </AdminGuard>
      </SampleContentContext>
      <Toaster />
    </QueryClientProvider>
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
