/**
 * Review Platforms (SPEC §2, §9): a static display of Google, Avvo and Yelp as Active, the Enabled
 * display setting and the 'every 24 hours' auto-refresh badge. Refresh Reviews only shows its
 * success toast and calls nothing; Manage Sources edits the local review sources (nothing is sent).
 * Below them, the reviews the firm records for the home page (ExternalReviewsSection, issue 19).
 */
import { RefreshCw, SlidersHorizontal, Star } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import ExternalReviewsSection from './ExternalReviewsSection.tsx';
import ManageReviewSourcesDialog from './ManageReviewSourcesDialog.tsx';
import { AUTO_REFRESH_TEXT, connectedPlatforms, type ReviewSources } from './review-sources.ts';
import SectionHeader from './SectionHeader.tsx';

export default function ReviewPlatformsTab({ sources, onSave }: { sources: ReviewSources; onSave: (sources: ReviewSources) => void }) {
  const [managing, setManaging] = useState(false);

  return (
    <section aria-labelledby="review-platforms-title" className="space-y-4">
      <SectionHeader
        id="review-platforms-title"
        title="Review Platforms"
        description="Where the client reviews shown on the website come from."
        action={
          <>
            <Button
              variant="outline"
              // SPEC §2: only the toast; nothing is called.
              onClick={() => toast({ title: 'Reviews Refreshed', description: 'Successfully refreshed reviews from all connected platforms' })}
            >
              <RefreshCw aria-hidden="true" className="size-4" />
              Refresh Reviews
            </Button>
            <ManageReviewSourcesDialog
              open={managing}
              onOpenChange={setManaging}
              sources={sources}
              onSave={onSave}
              trigger={
                <Button>
                  <SlidersHorizontal aria-hidden="true" className="size-4" />
                  Manage Sources
                </Button>
              }
            />
          </>
        }
      />
      <div className="grid gap-4 md:grid-cols-3">
        <Card className="p-4 sm:p-5 md:col-span-2">
          <h3 className="text-base font-semibold">Connected Platforms</h3>
          <ul className="mt-3 divide-y divide-border" aria-label="Connected review platforms">
            {connectedPlatforms.map((name) => (
              <li key={name} className="flex items-center justify-between gap-3 py-2.5" data-testid="connected-platform">
                <span className="flex items-center gap-2 font-medium">
                  <Star aria-hidden="true" className="size-4 text-muted-foreground" />
                  {name}
                </span>
                <Badge variant="success">Active</Badge>
              </li>
            ))}
          </ul>
        </Card>
        <div className="grid gap-4">
          <Card className="p-4 sm:p-5">
            <h3 className="text-base font-semibold">Display Setting</h3>
            <p className="mt-1 text-sm text-muted-foreground">Reviews on the website</p>
            <p className="mt-2">
              <Badge variant="success">Enabled</Badge>
            </p>
          </Card>
          <Card className="p-4 sm:p-5">
            <h3 className="text-base font-semibold">Auto-refresh</h3>
            <p className="mt-1 text-sm text-muted-foreground">Reviews are refreshed</p>
            <p className="mt-2">
              <Badge variant="outline">{AUTO_REFRESH_TEXT}</Badge>
            </p>
          </Card>
        </div>
      </div>
      <ExternalReviewsSection />
    </section>
  );
}
