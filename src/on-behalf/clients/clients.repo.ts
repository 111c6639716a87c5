import { maybeOne, one, type Queryable } from '../../db/database.js'
import { empty, raw, sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'
import type { ConsentHow } from './clients.schemas.js'
import type { Gender } from '../../lib/matching-values.js'
import type { Locale } from '../../lib/values.js'
import type { ClientDefaults } from '../../help/requests/acting.js'

/**
 * Owns `clients` (docs/api/on-behalf.md › Coordinators and clients): a coordinator's record of a person without an account. Written by the
 * clients service (create, change, erase); read by it, by the acting policy (a client's request's defaults)
 * and by the requests reads (RequestDetail's `client`, the coordinators' list).
 */

/**
 * Read in the creating transaction and held (FOR SHARE) until it ends: an erasure, which locks the row first,
 * either waits for the new request and then cancels it, or has deleted the row, and the creation finds no client.
 */
export function findClientDefaults (db: Queryable, id: number): Promise<ClientDefaults | undefined> {
  return maybeOne<ClientDefaults>(db, sql`SELECT id, phone, address, city, latitude, longitude FROM clients WHERE id = ${id} FOR SHARE`)
}

/** A client's row as the API's Client is made of it. */
export interface ClientRow extends ClientDefaults {
  first_name: string
  last_name: string
  needs: string | null
  gender: Gender | null
  languages: string[]
  consent_how: ConsentHow
  consent_recorded_by: number | null
  consent_recorded_at: Date
  /** docs/api/on-behalf.md › Texts to a client: the consent to texts, null when none (or withdrawn). */
  texts_how: ConsentHow | null
  texts_recorded_by: number | null
  texts_recorded_at: Date | null
  locale: Locale
  created_at: Date
  updated_at: Date
}

/** The fields a coordinator writes, each present only when given (a PATCH leaves the others). */
export interface ClientFields {
  first_name?: string
  last_name?: string
  phone?: string | null
  address?: string | null
  city?: string | null
  latitude?: number | null
  longitude?: number | null
  needs?: string | null
  gender?: Gender | null
  /** Checked (lib/matching-values.ts parseLanguages). */
  languages?: string[]
  /** The language of the client's texts. */
  locale?: Locale
}

/** A consent as recorded: how, by which coordinator, when. */
export interface Consent { how: ConsentHow, recordedBy: number, at: Date }

/** What a PATCH does to the consent to texts: records one (again), withdraws it (null), or leaves it (undefined). */
export type TextsChange = Consent | null | undefined

const COLUMNS = raw(`id, first_name, last_name, phone, address, city, latitude, longitude, needs, gender, languages,
  consent_how, consent_recorded_by, consent_recorded_at, texts_how, texts_recorded_by, texts_recorded_at, locale, created_at, updated_at`)

/**
 * The digits a phone is searched by: no blanks or punctuation, no leading `+` or `00` (docs/api/on-behalf.md › Coordinators and clients), so
 * "+49 170 1234567" and "0049170…" are one number; stored beside the phone (phone_digits).
 */
export const phoneDigits = (phone: string): string => phone.replace(/\D/g, '').replace(/^00/, '')

export function insertClient (db: Queryable, fields: Required<Pick<ClientFields, 'first_name' | 'last_name'>> & ClientFields, consent: Consent): Promise<ClientRow> {
  const phone = fields.phone ?? null
  return one<ClientRow>(db, sql`
    INSERT INTO clients (first_name, last_name, phone, phone_digits, address, city, latitude, longitude, needs, gender, languages,
      consent_how, consent_recorded_by, consent_recorded_at, created_at, updated_at)
    VALUES (${fields.first_name}, ${fields.last_name}, ${phone}, ${phone === null ? null : phoneDigits(phone)}, ${fields.address ?? null},
      ${fields.city ?? null}, ${fields.latitude ?? null}::float8, ${fields.longitude ?? null}::float8, ${fields.needs ?? null},
      ${fields.gender ?? null}, ${fields.languages ?? []}::text[], ${consent.how}, ${consent.recordedBy}, ${consent.at}, ${consent.at}, ${consent.at})
    RETURNING ${COLUMNS}`)
}

export function findClient (db: Queryable, id: number): Promise<ClientRow | undefined> {
  return maybeOne<ClientRow>(db, sql`SELECT ${COLUMNS} FROM clients WHERE id = ${id}`)
}

/** The client, locked until the transaction ends: a change and an erasure of one client queue on its row. */
export function lockClient (db: Queryable, id: number): Promise<ClientRow | undefined> {
  return maybeOne<ClientRow>(db, sql`SELECT ${COLUMNS} FROM clients WHERE id = ${id} FOR UPDATE`)
}

/**
 * Writes the given fields (and a consent recorded again, a consent to texts recorded or withdrawn: withdrawn,
 * its how, by and at are cleared together); the caller holds the row's lock.
 */
export function updateClient (db: Queryable, id: number, fields: ClientFields, consent: Consent | undefined, texts: TextsChange, at: Date): Promise<ClientRow> {
  const set = (column: string, value: unknown, cast = '') => value === undefined ? empty : sql`, ${raw(column)} = ${value}${raw(cast)}`
  const phone = fields.phone
  return one<ClientRow>(db, sql`
    UPDATE clients SET updated_at = ${at}
      ${set('first_name', fields.first_name)} ${set('last_name', fields.last_name)}
      ${set('phone', phone)} ${set('phone_digits', phone === undefined ? undefined : phone === null ? null : phoneDigits(phone))}
      ${set('address', fields.address)} ${set('city', fields.city)}
      ${set('latitude', fields.latitude, '::float8')} ${set('longitude', fields.longitude, '::float8')} ${set('needs', fields.needs)}
      ${set('gender', fields.gender)} ${set('languages', fields.languages, '::text[]')}
      ${set('consent_how', consent?.how)} ${set('consent_recorded_by', consent?.recordedBy)} ${set('consent_recorded_at', consent?.at)}
      ${set('texts_how', texts === undefined ? undefined : texts?.how ?? null)} ${set('texts_recorded_by', texts === undefined ? undefined : texts?.recordedBy ?? null)}
      ${set('texts_recorded_at', texts === undefined ? undefined : texts?.at ?? null)} ${set('locale', fields.locale)}
    WHERE id = ${id}
    RETURNING ${COLUMNS}`)
}

/** A search written as a phone number: digits, blanks and the punctuation numbers are written with. */
const PHONE_LIKE = /^[\d\s+()./-]+$/

/**
 * Clients whose name contains `text` (any case), or, when it is written as a number (digits with blanks and
 * phone punctuation only, at least three digits), whose phone contains them in the form phoneDigits makes (a
 * leading trunk 0, "0170 …", is dropped too, so a national spelling finds the international number); most
 * recently updated first. Every client without `text`. A name with a digit in it is no phone search.
 */
export function searchClients (db: Queryable, text: string | undefined, page: Page): Promise<ClientRow[]> {
  const trimmed = text?.trim() ?? ''
  const pattern = `%${trimmed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const digits = PHONE_LIKE.test(trimmed) ? phoneDigits(trimmed).replace(/^0/, '') : ''
  const byPhone = digits.length < 3 ? empty : sql`OR phone_digits LIKE ${`%${digits}%`}`
  const where = trimmed === '' ? empty : sql`WHERE (first_name || ' ' || last_name) ILIKE ${pattern} ${byPhone}`
  return db.query<ClientRow>(sql`
    SELECT ${COLUMNS} FROM clients ${where}
    ORDER BY updated_at DESC, id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/**
 * CLIENT_RETENTION_DAYS (docs/privacy.md › Clients of the coordinators): up to `limit` clients with no request
 * under way and nothing new for `days` days (the record unchanged, none of their requests made or ended since),
 * locked for their erasure in this transaction. SKIP LOCKED: a client being read for a new request is left for
 * the next run, which then finds that request.
 */
export function lockIdleClients (db: Queryable, days: number, limit: number, now: Date): Promise<Array<{ id: number }>> {
  const since = sql`${now}::timestamptz - make_interval(days => ${days})`
  return db.query<{ id: number }>(sql`
    SELECT c.id FROM clients c
    WHERE c.updated_at < ${since}
      AND NOT EXISTS (SELECT 1 FROM requests r WHERE r.client_id = c.id
        AND (r.status IN ('pending_moderation', 'approved', 'in_progress') OR r.created_at >= ${since} OR r.finished_at >= ${since}))
    ORDER BY c.id
    LIMIT ${limit}
    FOR UPDATE OF c SKIP LOCKED`)
}

/** Erasure's last step (docs/privacy.md › Erasure as for an account): the row is gone; requests keep its id. */
export async function deleteClient (db: Queryable, id: number): Promise<void> {
  await db.query(sql`DELETE FROM clients WHERE id = ${id}`)
}
