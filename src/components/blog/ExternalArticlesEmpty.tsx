/** SPEC §8 empty state for external articles. */
export default function ExternalArticlesEmpty() {
  return (
    <div className="rounded-lg border border-dashed border-border px-6 py-12 text-center">
      <h3 className="text-lg font-semibold">No External Articles Available</h3>
      <p className="mt-2 text-sm text-muted-foreground">External blog sources have not been configured or no articles have been fetched yet.</p>
    </div>
  );
}
