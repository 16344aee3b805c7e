/** SPEC §8 Sign out: 'Signed out' then /login; failure 'Error' / 'Failed to sign out. Please try again.' */
import { LoaderCircle, LogOut } from 'lucide-react';
import { useState } from 'react';
import { signOut } from '../../lib/auth/auth.ts';
import { toast, toastOnNextPage } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';

/** `size` 'sm' where it shares a row with the navigation. */
export default function SignOutButton({ size }: { size?: 'sm' } = {}) {
  const [pending, setPending] = useState(false);

  const onClick = async () => {
    setPending(true);
    try {
      await signOut();
      // Shown by /login's Toaster: this page is about to go.
      toastOnNextPage({ title: 'Signed out' });
      window.location.assign('/login');
    } catch {
      toast({ title: 'Error', description: 'Failed to sign out. Please try again.', variant: 'destructive' });
      setPending(false);
    }
  };

  return (
    <Button variant="outline" size={size} className={size ? 'h-10' : undefined} onClick={onClick} disabled={pending} aria-busy={pending || undefined}>
      {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <LogOut aria-hidden="true" className="size-4" />}
      {pending ? 'Signing out...' : 'Sign Out'}
    </Button>
  );
}
