/** A plain note that the site is showing sample content (./sample-content.ts), above an admin list. */
import { FlaskConical } from 'lucide-react';
import { Badge } from '../ui/card.tsx';

export default function SamplesNote({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p
      className="flex gap-2 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50"
      data-testid="samples-note"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{text}</span>
    </p>
  );
}

/** On a row the seed wrote for development (its text unchanged): not the firm's, nor a client's. */
export function SampleBadge() {
  return (
    <Badge variant="outline" className="border-amber-600" title="Written by the setup for development: rewrite it or delete it before the site goes live.">
      Sample
    </Badge>
  );
}
