/** What the Admins screen's sections share: labelled values, commands in code type, a list that failed. */
import type { ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';
import { refusalMessage } from './admins.ts';

export const Code = ({ children }: { children: string }) => (
  <code className="break-words rounded bg-muted px-1 py-0.5 font-mono text-[0.8125rem]">{children}</code>
);

/** A labelled value: the label shows on a phone (a card), and stays for screen readers from md up (a row). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p className="min-w-0 text-sm">
      <span className="font-medium md:sr-only">{label}: </span>
      {children}
    </p>
  );
}

/** A section's list could not load: the server's reason (missing AWS permissions, say) and Try Again. */
export function ListFailure({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-destructive p-4">
      <p className="font-semibold">{what} could not be loaded.</p>
      <p className="break-words text-sm">{refusalMessage(error, 'Please check your connection and try again.')}</p>
      <Button variant="outline" onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}
