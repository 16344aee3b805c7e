/**
 * The bookings' "floor": the least a server can do for the same answers to POST /api/appointments, a
 * minimal Hono process on the site's own schema. It validates the body with the site's own schema,
 * then in ONE transaction stores the appointment, claims its 30-minute cells (the primary key refuses
 * a taken one: 409) and queues the two e-mails (the visitor's confirmation and the firm's
 * notification) as delivery rows, with statements prepared once. It sends nothing afterwards; the
 * site also runs its deliveries, so the ratio shows what the site's whole booking costs over this.
 * SQLite: the site's pragmas (WAL, synchronous = FULL), one transaction per request, as
 * better-sqlite3 does it. PostgreSQL: one pooled client per booking, BEGIN … COMMIT.
 *   node bench/floor-booking.ts <site.db | postgres://…>   (migrates like the site, prints its port)
 */
import { serve } from '@hono/node-server';
import BetterSqlite3 from 'better-sqlite3';
import { Hono } from 'hono';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { consultationMinutes } from '../src/shared/constants.ts';
import { appointmentInput } from '../src/shared/schemas/appointments.ts';

const target = process.argv[2]!;
const postgres = target.startsWith('postgres');
// The site's migrations, so both servers write the same tables with the same indexes and checks.
await (await openDatabase(postgres ? { databaseUrl: target } : { sqlitePath: target })).close();

const CELL_MS = 30 * 60_000;
const cellsOf = (start: Date, minutes: number) => {
  const cells: number[] = [];
  for (let cell = Math.floor(start.getTime() / CELL_MS) * CELL_MS; cell < start.getTime() + minutes * 60_000; cell += CELL_MS) cells.push(cell);
  return cells;
};

type Booking = ReturnType<typeof appointmentInput.parse> & { id: string; duration: number };
/** true: stored; false: a cell was taken. */
type Store = (booking: Booking) => Promise<boolean>;

const deliveryRows = (b: Booking) =>
  (['booking-confirmation', 'booking-notification'] as const).map((purpose) => ({
    id: crypto.randomUUID(),
    purpose,
    payload: JSON.stringify({
      to: purpose === 'booking-confirmation' ? b.email : 'firm@example.com',
      appointment: { ...b, scheduledDate: b.scheduledDate.toISOString() },
    }),
    dedupeKey: `${purpose}:${b.id}`,
  }));

function sqliteStore(path: string): Store {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  const appointment = db.prepare(
    `insert into appointments (id, first_name, last_name, email, phone, consultation_type, scheduled_date, duration, notes, practice_area)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const claim = db.prepare('insert into appointment_slot_claims (starts_at, appointment_id) values (?, ?)');
  const delivery = db.prepare(
    `insert into deliveries (id, channel, purpose, appointment_id, payload, dedupe_key, next_attempt_at) values (?, 'email', ?, ?, ?, ?, ?)`,
  );
  const book = db.transaction((b: Booking) => {
    appointment.run(b.id, b.firstName, b.lastName, b.email, b.phone, b.consultationType, b.scheduledDate.getTime(), b.duration, b.notes, b.practiceArea);
    for (const cell of cellsOf(b.scheduledDate, b.duration)) claim.run(cell, b.id);
    for (const d of deliveryRows(b)) delivery.run(d.id, d.purpose, b.id, d.payload, d.dedupeKey, Date.now());
  });
  return async (b) => {
    try {
      book.immediate(b);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return false;
      throw err;
    }
  };
}

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (b) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query({
        name: 'appointment',
        text: `insert into appointments (id, first_name, last_name, email, phone, consultation_type, scheduled_date, duration, notes, practice_area)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        values: [b.id, b.firstName, b.lastName, b.email, b.phone, b.consultationType, b.scheduledDate, b.duration, b.notes, b.practiceArea],
      });
      await client.query({
        name: 'claims',
        text: 'insert into appointment_slot_claims (starts_at, appointment_id) select unnest($1::timestamptz[]), $2',
        values: [cellsOf(b.scheduledDate, b.duration).map((ms) => new Date(ms)), b.id],
      });
      const rows = deliveryRows(b);
      await client.query({
        name: 'deliveries',
        text: `insert into deliveries (id, channel, purpose, appointment_id, payload, dedupe_key, next_attempt_at)
               select unnest($1::text[]), 'email', unnest($2::text[]), $3, unnest($4::text[]), unnest($5::text[]), now()`,
        values: [rows.map((d) => d.id), rows.map((d) => d.purpose), b.id, rows.map((d) => d.payload), rows.map((d) => d.dedupeKey)],
      });
      await client.query('commit');
      return true;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    } finally {
      client.release();
    }
  };
}

const store = postgres ? postgresStore(target) : sqliteStore(target);
const app = new Hono();
app.get('/api/health', (c) => c.json({ status: 'ok' }));
app.post('/api/appointments', async (c) => {
  const parsed = appointmentInput.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return c.json({ error: 'Validation failed' }, 400);
  const booking = { ...parsed.data, id: crypto.randomUUID(), duration: consultationMinutes(parsed.data.consultationType) };
  if (!(await store(booking))) return c.json({ error: 'This time was just booked by someone else.' }, 409);
  const { id, consultationType, scheduledDate, duration } = booking;
  return c.json({ id, consultationType, scheduledDate, duration, status: 'scheduled' }, 201);
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(info.port));
