import type { APIRequestContext } from '@playwright/test'
import { E2E_ADMIN } from './accounts.js'

/**
 * The other people in a story, acting through the public JSON API (the journeys under test are the
 * ones driven in the browser).
 */
export interface Person { id: number, token: string, name: string }

async function json<T> (response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  if (!response.ok()) throw new Error(`${response.url()}: ${response.status()} ${await response.text()}`)
  return await response.json() as T
}

export async function signInAdmin (request: APIRequestContext): Promise<Person> {
  const body = await json<{ access_token: string, user: { id: number, first_name: string } }>(await request.post('/api/v1/auth/login', { data: E2E_ADMIN }))
  return { id: body.user.id, token: body.access_token, name: body.user.first_name }
}

export async function registerPerson (request: APIRequestContext, email: string, first: string, last: string): Promise<Person> {
  const body = await json<{ access_token: string, user: { id: number } }>(await request.post('/api/v1/auth/register', { data: { email, password: 'correct horse battery', first_name: first, last_name: last } }))
  return { id: body.user.id, token: body.access_token, name: `${first} ${last}` }
}

const auth = (person: Person) => ({ authorization: `Bearer ${person.token}` })

export async function approve (request: APIRequestContext, moderator: Person, id: number): Promise<void> {
  await json(await request.post(`/api/v1/moderation/requests/${id}/approve`, { headers: auth(moderator), data: {} }))
}

export async function offer (request: APIRequestContext, volunteer: Person, id: number, message: string): Promise<void> {
  await json(await request.post(`/api/v1/requests/${id}/responses`, { headers: auth(volunteer), data: { message } }))
}

export async function createRequest (request: APIRequestContext, requester: Person, title: string, fields: Record<string, unknown> = {}): Promise<number> {
  const body = await json<{ id: number }>(await request.post('/api/v1/requests', {
    headers: auth(requester),
    data: { request_type_id: 1, title, description: 'Milk, bread and apples from the shop', latitude: 52.52, longitude: 13.405, address: 'Unter den Linden 1', urgency: 'medium', ...fields },
  }))
  return body.id
}

/** Gives `person` the moderator role (2) as the admin. */
export async function makeModerator (request: APIRequestContext, admin: Person, person: Person): Promise<void> {
  await json(await request.post(`/api/v1/admin/users/${person.id}/roles/2`, { headers: auth(admin) }))
}
