/**
 * The post editor's Preview links section (docs/decisions/042): a preview link is good for a week to
 * whoever holds it (./PreviewLink.tsx), so one sent to the wrong person, or a draft that must not be
 * seen any more, needs a way to close them. Revoke Preview Links (after a confirmation) stops every
 * link made for this post until now (DELETE /api/admin/blog-posts/:id/preview-links); links made
 * afterwards work. Unpublishing the post does the same by itself. Shows when links were last revoked.
 */
import { Link2Off } from 'lucide-react';
import { useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { blogPostListKeys, type BlogPost } from './blog-post-form.ts';

export default function PreviewLinksRevoke({ post }: { post: Pick<BlogPost, 'id' | 'title' | 'previewsRevokedAt'> }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useAdminMutation<void, { previewsRevokedAt: string }>({
    mutationFn: () => read(api.admin['blog-posts'][':id']['preview-links'].$delete({ param: { id: post.id } })),
    invalidates: blogPostListKeys,
    success: 'Preview links revoked: the links made until now no longer open this post',
    failure: 'The preview links could not be revoked. Please try again.',
    onSuccess: () => setConfirming(false),
  });
  const revokedAt = revoke.data?.previewsRevokedAt ?? post.previewsRevokedAt;

  return (
    <section aria-labelledby="preview-links-title" className="grid gap-2 rounded-md border border-border p-3 sm:p-4" data-testid="preview-links">
      <h2 id="preview-links-title" className="text-sm font-semibold">
        Preview Links
      </h2>
      <p className="text-sm text-muted-foreground">
        Anyone holding a preview link of this post can read it as saved, for a week after the link was made. Revoking stops every link made until now;
        unpublishing the post does too.
      </p>
      {revokedAt && (
        <p className="text-sm" data-testid="previews-revoked-at">
          Links made before <time dateTime={revokedAt}>{formatFirmDateTime(revokedAt)}</time> no longer open this post.
        </p>
      )}
      <div>
        <Button variant="outline" className="h-10" onClick={() => setConfirming(true)}>
          <Link2Off aria-hidden="true" className="size-4" />
          Revoke Preview Links
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && !revoke.isPending && setConfirming(false)}
        title="Revoke preview links?"
        description={`Every preview link made for “${post.title}” until now stops working: whoever opens one is told it has expired. Links you make afterwards work as usual. This cannot be undone.`}
        confirmLabel="Revoke Links"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </section>
  );
}
