/**
 * /admin/integrations (SPEC §2): four tabs, opening on Calendar (or the tab the URL's hash names): calendar sync, email sending, the
 * review platforms (local only) and the external blog sources. Radix Tabs: arrow keys move between
 * the tabs, each panel is labelled by its tab. A panel's content is mounted only while its tab is
 * open (its lists load then); the review sources' local state lives here, so it survives a tab
 * change for as long as the page is open (SPEC §2: nothing is sent).
 */
import * as Tabs from '@radix-ui/react-tabs';
import { CalendarDays, Mail, Rss, Star, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import AdminPage from '../AdminPage.tsx';
import BlogSourcesTab from './BlogSourcesTab.tsx';
import CalendarTab from './CalendarTab.tsx';
import EmailTab from './EmailTab.tsx';
import ReviewPlatformsTab from './ReviewPlatformsTab.tsx';
import { defaultReviewSources, type ReviewSources } from './review-sources.ts';

const tabValues = ['calendar', 'email', 'reviews', 'blog-sources'] as const;
type TabValue = (typeof tabValues)[number];

/** A link may name the tab to open (`/admin/integrations#email`, the dashboard's warnings). */
const tabOfHash = (): TabValue => {
  const named = window.location.hash.slice(1);
  return (tabValues as readonly string[]).includes(named) ? (named as TabValue) : 'calendar';
};

export default function IntegrationsScreen() {
  const [tab, setTab] = useState<TabValue>(tabOfHash);
  const [reviewSources, setReviewSources] = useState<ReviewSources>(defaultReviewSources);

  return (
    <AdminPage title="Integrations" description="Calendar sync, email sending, review platforms and external blog sources.">
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as TabValue)}>
        <Tabs.List aria-label="Integrations" className="grid grid-cols-2 gap-1 rounded-md bg-muted p-1 sm:grid-cols-4">
          <TabTrigger value="calendar" icon={CalendarDays}>
            Calendar
          </TabTrigger>
          <TabTrigger value="email" icon={Mail}>
            Email
          </TabTrigger>
          <TabTrigger value="reviews" icon={Star}>
            Review Platforms
          </TabTrigger>
          <TabTrigger value="blog-sources" icon={Rss}>
            Blog Sources
          </TabTrigger>
        </Tabs.List>
        <Tabs.Content value="calendar" className={panelClass}>
          <CalendarTab />
        </Tabs.Content>
        <Tabs.Content value="email" className={panelClass}>
          <EmailTab />
        </Tabs.Content>
        <Tabs.Content value="reviews" className={panelClass}>
          <ReviewPlatformsTab sources={reviewSources} onSave={setReviewSources} />
        </Tabs.Content>
        <Tabs.Content value="blog-sources" className={panelClass}>
          <BlogSourcesTab />
        </Tabs.Content>
      </Tabs.Root>
    </AdminPage>
  );
}

const panelClass = 'mt-6 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring';

function TabTrigger({ value, icon: Icon, children }: { value: TabValue; icon: LucideIcon; children: ReactNode }) {
  return (
    <Tabs.Trigger
      value={value}
      className="inline-flex min-h-11 items-center justify-center gap-2 rounded-sm px-2 py-2 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=active]:bg-background data-[state=active]:font-semibold data-[state=active]:text-foreground data-[state=active]:shadow-sm"
    >
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      {children}
    </Tabs.Trigger>
  );
}
