/** A booking's facts as term and value (reference, type, date, time, ...): the modal's confirmation and the booking's own page. */
export default function BookingFacts({ rows, className = '' }: { rows: readonly (readonly [term: string, value: string])[]; className?: string }) {
  return (
    <dl className={`grid gap-x-6 gap-y-2 rounded-md border border-border p-4 text-sm sm:grid-cols-[auto_1fr] ${className}`}>
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-muted-foreground">{term}</dt>
          <dd className="break-words max-sm:mb-2">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
