/**
 * A post's preview link (issue 19, item 2): made on request (POST /api/admin/blog-posts/:id/preview-link),
 * shown with when it stops working, to copy or open. Anyone holding it can read the post as saved, for
 * a week (api/blog-posts/preview-link.ts).
 */
import { Copy, ExternalLink, Eye } from 'lucide-react';
import { useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { toast } from '../../../lib/toast.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { Dialog, DialogContent } from '../../ui/dialog.tsx';
import { Input } from '../../ui/form.tsx';
import type { BlogPost } from './blog-post-form.ts';

type Link = { url: string; expiresAt: string };

export default function PreviewLink({ post }: { post: BlogPost }) {
  const [link, setLink] = useState<Link | null>(null);
  const [pending, setPending] = useState(false);

  const make = async () => {
    setPending(true);
    try {
      setLink(await read(api.admin['blog-posts'][':id']['preview-link'].$post({ param: { id: post.id } })));
    } catch (err) {
      console.error('Failed to create a preview link', err);
      toast({ title: 'Error', description: 'The preview link could not be made. Please try again.', variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      toast({ title: 'Success', description: 'Preview link copied' });
    } catch {
      toast({ title: 'Error', description: 'The link could not be copied: select it and copy it yourself.', variant: 'destructive' });
    }
  };

  return (
    <>
      <Button variant="outline" size="sm" className="h-10" onClick={make} disabled={pending} aria-busy={pending || undefined}>
        <Eye aria-hidden="true" className="size-4" />
        Preview<span className="sr-only"> {post.title}</span>
      </Button>
      <Dialog open={link !== null} onOpenChange={(open) => !open && setLink(null)}>
        {link && (
          <DialogContent
            title="Preview link"
            description={`Anyone with this link can read “${post.title}” as it is saved, until ${formatFirmDateTime(link.expiresAt)}. Later edits show in it too.`}
          >
            <Input readOnly value={link.url} aria-label="Preview link" className="font-mono" onFocus={(e) => e.currentTarget.select()} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={copy}>
                <Copy aria-hidden="true" className="size-4" />
                Copy Link
              </Button>
              <a href={link.url} target="_blank" rel="noopener" className={buttonClass('default', 'md')}>
                <ExternalLink aria-hidden="true" className="size-4" />
                Open Preview<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </div>
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}
