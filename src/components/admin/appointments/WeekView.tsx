/**
 * The appointments of one week, day by day (issue 19, as Cal.com shows bookings): seven firm days
 * from Monday, each a list of its consultations in time order, with the week before and after one
 * click away. The same filters as the list apply; View Details opens the same dialog. On a phone the
 * days stack; at desktop width they stand side by side.
 */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '../../ui/button.tsx';
import { addDays, firmToday, formatFirmDate, formatFirmTimeRange, longDateLabel, type FirmDate } from '../../../shared/firm-time.ts';
import AppointmentStatusBadge from './AppointmentStatusBadge.tsx';
import { byFirmDay, fullName, weekOf, type Appointment } from './appointments.ts';

export default function WeekView({
  rows,
  week,
  onWeekChange,
  onOpen,
}: {
  rows: readonly Appointment[];
  /** Any day of the week shown. */
  week: FirmDate;
  onWeekChange: (day: FirmDate) => void;
  onOpen: (appointment: Appointment, opener: HTMLElement) => void;
}) {
  const days = weekOf(week);
  const byDay = byFirmDay(rows, days);
  const today = firmToday(new Date());
  const count = [...byDay.values()].reduce((n, list) => n + list.length, 0);
  return (
    <section aria-labelledby="week-heading" className="space-y-4" data-testid="week-view">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="week-heading" className="text-lg font-semibold">
          Week of {formatFirmDate(`${days[0]}T12:00:00Z`)} <span className="text-muted-foreground">({count})</span>
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" className="h-10" onClick={() => onWeekChange(addDays(days[0]!, -7))}>
            <ChevronLeft aria-hidden="true" className="size-4" />
            Previous Week
          </Button>
          <Button variant="outline" size="sm" className="h-10" onClick={() => onWeekChange(today)}>
            This Week
          </Button>
          <Button variant="outline" size="sm" className="h-10" onClick={() => onWeekChange(addDays(days[0]!, 7))}>
            Next Week
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
      <ol className="grid gap-3 lg:grid-cols-7">
        {days.map((day) => {
          const list = byDay.get(day) ?? [];
          return (
            <li key={day} className={`min-w-0 rounded-lg border p-3 ${day === today ? 'border-primary' : 'border-border'}`} data-day={day}>
              <h4 className="text-sm font-semibold">
                {longDateLabel(day).replace(/, \d{4}$/, '')}
                {day === today && <span className="ml-1 font-normal text-muted-foreground">(today)</span>}
              </h4>
              {list.length === 0 ? (
                <p className="mt-2 text-xs text-muted-foreground">No appointments</p>
              ) : (
                <ul className="mt-2 space-y-2">
                  {list.map((a) => (
                    <li key={a.id} className="space-y-1 rounded-md bg-muted p-2 text-xs" data-testid="week-appointment">
                      <p className="font-medium">{formatFirmTimeRange(a.scheduledDate, a.duration)}</p>
                      <p className="break-words text-sm font-semibold">{fullName(a)}</p>
                      <AppointmentStatusBadge status={a.status} />
                      <div>
                        <Button variant="outline" size="sm" className="mt-1 h-10" onClick={(e) => onOpen(a, e.currentTarget)} data-details-for={a.id}>
                          View Details<span className="sr-only"> for {fullName(a)}</span>
                        </Button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
