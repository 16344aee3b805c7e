/**
 * The embedded identity service's queries for becoming an admin (docs/decisions/041): requests (a
 * confirmed sign-up on ADMIN_EMAILS, waiting for an admin) and invitations (an admin's single-use
 * link, kept as its token's digest). Each change that must happen once is one compare-and-set.
 */
import { and, asc, desc, eq, getTableColumns, gt, isNotNull, isNull, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { Database, Tables } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/driver-errors.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { IdentityUser } from './identity.repository.ts';

export type Invitation = Tables['identityInvitations']['$inferSelect'];

/** The account an accepted invitation makes: a confirmed admin. */
export interface InvitedAccount {
  id: string;
  username: string;
  usernameKey: string;
  email: string;
  emailKey: string;
  passwordHash: string;
}

export type AcceptOutcome = { outcome: 'accepted'; user: IdentityUser } | { outcome: 'invalid' | 'username-taken' | 'address-taken' };

/** An address as the one-account-per-address key (identity_users.email_key) keeps it: NFKC, lower case. */
export const emailKeyOf = (email: string) => email.trim().normalize('NFKC').toLowerCase();

/** What an accepted invitation's token digest becomes: never a digest again, and it names the account. */
const acceptedMarker = (userId: string) => `accepted:${userId}`;

/**
 * A constant in a SELECT list, as the column stores it. PostgreSQL cannot tell a bare parameter's type
 * there (INSERT … SELECT does not lend it the target column's), so it is cast to the column's.
 */
const constant = (dialect: Database['dialect'], value: unknown, column: Column): SQL =>
  dialect === 'postgres' ? sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}` : sql`${sql.param(value, column)}`;

const usernameTaken = (err: unknown) => isUniqueViolation(err, { pg: 'identity_users_username_key_unique', sqlite: 'identity_users.username_key' });
const addressTaken = (err: unknown) => isUniqueViolation(err, { pg: 'identity_users_email_key_unique', sqlite: 'identity_users.email_key' });

export function admissionRepository(database: Database) {
  const { db, t, dialect } = database;
  const users = t.identityUsers;
  const invitations = t.identityInvitations;
  /** A request still open: asked, not in the group, and neither refused (disabled) nor unconfirmed. */
  const openRequest = and(isNotNull(users.adminRequestedAt), eq(users.isAdmin, false), eq(users.enabled, true), eq(users.status, 'CONFIRMED'));
  const pending = (now: Date) => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now));

  return {
    // --- requests -----------------------------------------------------------------------------

    /** Open requests, oldest first. */
    requests: () => db.select().from(users).where(openRequest).orderBy(asc(users.adminRequestedAt), asc(users.usernameKey)),

    /**
     * Records a request for a confirmed user not in the group who has none (an account that was an
     * admin through ADMIN_EMAILS alone, before requests existed). The row, or null when nothing changed.
     */
    async markRequested(userId: string, at: Date) {
      const [row] = await db
        .update(users)
        .set({ adminRequestedAt: at })
        .where(and(eq(users.id, userId), isNull(users.adminRequestedAt), eq(users.isAdmin, false), eq(users.enabled, true), eq(users.status, 'CONFIRMED')))
        .returning();
      return row ?? null;
    },

    /** Into the group, the request closed; null unless it was still open (a second approval, a refusal first). */
    async approve(userId: string) {
      const [row] = await db
        .update(users)
        .set({ isAdmin: true, adminRequestedAt: null })
        .where(and(eq(users.id, userId), openRequest))
        .returning();
      return row ?? null;
    },

    /** Disabled, the request closed (the address stays taken); null unless it was still open. */
    async refuse(userId: string) {
      const [row] = await db
        .update(users)
        .set({ enabled: false, adminRequestedAt: null })
        .where(and(eq(users.id, userId), openRequest))
        .returning();
      return row ?? null;
    },

    // --- invitations --------------------------------------------------------------------------

    /**
     * A confirmed account that has this address: by its address key, or (accounts confirmed before
     * keys were kept, the second of two with one address) by the address itself.
     */
    async confirmedAccountWith(emailKey: string) {
      const [row] = await db
        .select({ username: users.username })
        .from(users)
        .where(or(eq(users.emailKey, emailKey), and(eq(users.status, 'CONFIRMED'), eq(sql`lower(${users.email})`, emailKey))))
        .limit(1);
      return row ?? null;
    },

    /** The new invitation; the address's earlier pending ones are revoked in the same transaction (their links die). */
    async insertInvitation(invitation: { email: string; tokenHash: string; invitedBy: string; expiresAt: Date }, now: Date) {
      const [superseded, inserted] = await inTransaction(database, (tx) => [
        tx
          .update(invitations)
          .set({ revokedAt: now })
          .where(and(eq(invitations.email, invitation.email), pending(now)))
          .returning({ id: invitations.id }),
        tx.insert(invitations).values(invitation).returning(),
      ]);
      return { invitation: inserted[0]!, superseded: superseded.length };
    },

    pendingInvitations: (now: Date) => db.select().from(invitations).where(pending(now)).orderBy(desc(invitations.createdAt), asc(invitations.email)),

    async pendingCount(now: Date) {
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(invitations)
        .where(pending(now));
      return row?.n ?? 0;
    },

    /** Revoked now; null unless it was still pending. */
    async revokeInvitation(id: string, now: Date) {
      const [row] = await db
        .update(invitations)
        .set({ revokedAt: now })
        .where(and(eq(invitations.id, id), pending(now)))
        .returning();
      return row ?? null;
    },

    async pendingByDigest(tokenHash: string, now: Date): Promise<Invitation | null> {
      const [row] = await db
        .select()
        .from(invitations)
        .where(and(eq(invitations.tokenHash, tokenHash), pending(now)));
      return row ?? null;
    },

    /**
     * Takes the invitation and makes its account, in one transaction. The take is the compare-and-set:
     * it matches only a pending invitation with this digest and replaces the digest with a marker
     * naming the new account, so of two acceptances at once one matches and the other finds nothing;
     * the account is inserted from the row carrying that marker, so it exists only if the take won.
     * A username or address already taken rolls both back: the invitation stays usable.
     */
    async acceptInvitation(tokenHash: string, now: Date, account: InvitedAccount): Promise<AcceptOutcome> {
      const marker = acceptedMarker(account.id);
      const row: Record<string, unknown> = {
        ...account,
        emailVerified: true,
        status: 'CONFIRMED',
        enabled: true,
        isAdmin: true,
        adminRequestedAt: null,
        srpVerifier: null,
        mfaSecret: null,
        mfaPendingSecret: null,
        mfaEnabled: false,
        mfaLastStep: null,
        // As the columns' own defaults do (real time, not the injected clock).
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      // Every column of identity_users, in the table's order (Drizzle's INSERT … SELECT asks for exactly that).
      const selection = Object.fromEntries(Object.entries(getTableColumns(users)).map(([key, column]) => [key, constant(dialect, row[key] ?? null, column)]));
      try {
        const [taken, inserted] = await inTransaction(database, (tx) => [
          tx
            .update(invitations)
            .set({ acceptedAt: now, tokenHash: marker })
            .where(and(eq(invitations.tokenHash, tokenHash), pending(now)))
            .returning({ id: invitations.id }),
          tx
            .insert(users)
            // (Typed as the dialects' union, the builder's overloads cannot be told apart: the columns are checked when it runs.)
            .select((qb) => qb.select(selection).from(invitations).where(eq(invitations.tokenHash, marker)) as never)
            .returning(),
        ]);
        if (taken.length !== 1 || inserted.length !== 1) return { outcome: 'invalid' };
        return { outcome: 'accepted', user: inserted[0] as IdentityUser };
      } catch (err) {
        if (usernameTaken(err)) return { outcome: 'username-taken' };
        if (addressTaken(err)) return { outcome: 'address-taken' };
        throw err;
      }
    },
  };
}

export type AdmissionRepository = ReturnType<typeof admissionRepository>;
