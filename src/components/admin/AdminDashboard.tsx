/**
 * /admin (SPEC §2): for now the greeting with the username and the Sign Out button. The stat cards,
 * Quick Actions, Navigation and recent lists come with the admin dashboard issue.
 */
import { useAdminSession } from './AdminGuard.tsx';
import SignOutButton from './SignOutButton.tsx';

export default function AdminDashboard() {
  const { username } = useAdminSession();
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 border-b border-border pb-6">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Admin Dashboard</h1>
        <p className="mt-1 text-muted-foreground">
          Welcome back, <span className="font-semibold text-foreground">{username}</span>
        </p>
      </div>
      <SignOutButton />
    </div>
  );
}
