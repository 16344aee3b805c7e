/** A screen's "what this does and does not do" card: a titled region holding a short list of points. */
import { Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader } from '../ui/card.tsx';

export default function AboutCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader
        title={
          <span id={id} className="inline-flex items-center gap-2">
            <Info aria-hidden="true" className="size-5 text-primary" />
            {title}
          </span>
        }
      />
      <CardContent>
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-muted-foreground">{children}</ul>
      </CardContent>
    </Card>
  );
}
