import { randomInt } from 'node:crypto'
import type { Account, TestApp } from './app.js'
import { assertStatus } from './assert.js'
import { REQUEST_INPUT } from './lifecycle.js'

/** Coordinators, their clients and the requests they ask for them (docs/api/on-behalf.md › Coordinators and clients), through the API. */

export async function newCoordinator (t: TestApp): Promise<Account> {
  const account = await t.register()
  assertStatus(await t.post(`/admin/users/${account.id}/roles/4`, undefined, t.admin.token), 200)
  return account
}

export interface ClientRecord { id: number, first_name: string, phone: string | null, texts: unknown, locale: string }

/** A client with a point and an address, recorded by `coordinator` with `fields` (a phone, say). */
export async function newClient (t: TestApp, coordinator: Account, fields: Record<string, unknown> = {}): Promise<ClientRecord> {
  const record = { first_name: `Erna${randomInt(1e9)}`, last_name: 'Schmidt', address: '5 Linden Way', city: 'Berlin', latitude: 52.4, longitude: 13.3 }
  const res = await t.post('/clients', { ...record, consent: { how: 'phone' }, ...fields }, coordinator.token)
  assertStatus(res, 201)
  return res.body
}

/** A request `coordinator` asks for the client, with the client's phone and point, approved by `moderator`; its id. */
export async function clientRequest (t: TestApp, coordinator: Account, moderator: Account, clientId: number, extra: Record<string, unknown> = {}): Promise<number> {
  const { latitude: _lat, longitude: _lon, address: _address, ...rest } = REQUEST_INPUT
  const res = await t.post('/requests', { ...rest, ...extra, on_behalf_of: { client_id: clientId } }, coordinator.token)
  assertStatus(res, 201)
  assertStatus(await t.post(`/moderation/requests/${res.body.id}/approve`, {}, moderator.token), 200)
  return res.body.id
}

/** A client's texts in the outbox, oldest first, with the type of the notification each belongs to and its owner. */
export interface ClientTextRow { id: number, user_id: number, notification_id: number, type: string, request_id: number, status: string, last_error: string | null, attempts: number }

export function clientTextRows (t: TestApp, clientId: number): Promise<ClientTextRow[]> {
  return t.db.query<ClientTextRow>(`
    SELECT d.id, d.user_id, d.notification_id, n.type, n.request_id, d.status, d.last_error, d.attempts
    FROM deliveries d JOIN notifications n ON n.id = d.notification_id
    WHERE d.client_id = $1 ORDER BY d.id`, [clientId])
}
