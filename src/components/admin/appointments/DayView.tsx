/**
 * One firm day's consultations in time order (issue 19, as Cal.com's day view), beside List and
 * Week: the day before and after one click away, and today. The same filters as the list apply; View
 * Details opens the same dialog. Each consultation is a row: its time and length, the client, the type
 * and the status, readable at 390 px.
 */
import { CalendarX2, ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '../../ui/button.tsx';
import { addDays, firmToday, formatFirmTimeRange, longDateLabel, type FirmDate } from '../../../shared/firm-time.ts';
import AppointmentStatusBadge from './AppointmentStatusBadge.tsx';
import { byFirmDay, consultationTypeLabel, fullName, type Appointment } from './appointments.ts';

export default function DayView({
  rows,
  day,
  onDayChange,
  onOpen,
}: {
  rows: readonly Appointment[];
  day: FirmDate;
  onDayChange: (day: FirmDate) => void;
  onOpen: (appointment: Appointment, opener: HTMLElement) => void;
}) {
  const list = byFirmDay(rows, [day]).get(day) ?? [];
  const today = firmToday(new Date());
  return (
    <section aria-labelledby="day-heading" className="space-y-4" data-testid="day-view" data-day={day}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="day-heading" className="text-lg font-semibold" aria-live="polite">
          {longDateLabel(day)}
          {day === today && <span className="ml-1 font-normal text-muted-foreground">(today)</span>}{' '}
          <span className="text-muted-foreground">({list.length})</span>
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" className="h-10" onClick={() => onDayChange(addDays(day, -1))}>
            <ChevronLeft aria-hidden="true" className="size-4" />
            Previous Day
          </Button>
          <Button variant="outline" size="sm" className="h-10" onClick={() => onDayChange(today)}>
            Today
          </Button>
          <Button variant="outline" size="sm" className="h-10" onClick={() => onDayChange(addDays(day, 1))}>
            Next Day
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
      {list.length === 0 ? (
        <p className="flex items-center gap-2 rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">
          <CalendarX2 aria-hidden="true" className="size-5 shrink-0" />
          No appointments on this day.
        </p>
      ) : (
        <ol className="space-y-2">
          {list.map((a) => (
            <li
              key={a.id}
              className="grid gap-x-4 gap-y-1 rounded-lg border border-border p-3 sm:grid-cols-[10rem_1fr_auto] sm:items-center"
              data-testid="day-appointment"
            >
              <p className="font-medium tabular-nums">
                <time dateTime={a.scheduledDate}>{formatFirmTimeRange(a.scheduledDate, a.duration)}</time>
              </p>
              <div className="min-w-0 space-y-1">
                <p className="break-words font-semibold">{fullName(a)}</p>
                <p className="text-sm text-muted-foreground">
                  {consultationTypeLabel(a.consultationType)} ({a.duration} min)
                </p>
                <AppointmentStatusBadge status={a.status} />
              </div>
              <div>
                <Button variant="outline" size="sm" className="h-10" onClick={(e) => onOpen(a, e.currentTarget)} data-details-for={a.id}>
                  View Details<span className="sr-only"> for {fullName(a)}</span>
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
