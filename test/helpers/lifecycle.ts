import assert from 'node:assert/strict'
import type { Account, TestApp } from './app.js'

/** A valid CreateRequestInput. */
export const REQUEST_INPUT = Object.freeze({
  request_type_id: 1,
  title: 'Groceries for the week',
  description: 'Milk, bread and vegetables from the shop on the corner',
  latitude: 52.52,
  longitude: 13.405,
  address: '1 Main Street',
  urgency: 'medium',
})

/** A request by `requester`, approved by `moderator`, all through the API; returns its id. */
export async function approvedRequest (t: TestApp, requester: Account, moderator: Account): Promise<number> {
  const created = await t.post('/requests', REQUEST_INPUT, requester.token)
  assert.equal(created.status, 201, created.text)
  const approved = await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)
  assert.equal(approved.status, 200, approved.text)
  return created.body.id
}

/** `volunteer` responds to the request; returns the response id. */
export async function respond (t: TestApp, requestId: number, volunteer: Account): Promise<number> {
  const res = await t.post(`/requests/${requestId}/responses`, { message: 'I can help' }, volunteer.token)
  assert.equal(res.status, 201, res.text)
  return res.body.id
}

/** An approved request with `volunteer` responded and accepted: in_progress. Returns the request and response ids. */
export async function assignedRequest (t: TestApp, requester: Account, moderator: Account, volunteer: Account): Promise<{ requestId: number, responseId: number }> {
  const requestId = await approvedRequest(t, requester, moderator)
  const responseId = await respond(t, requestId, volunteer)
  const accepted = await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, requester.token)
  assert.equal(accepted.status, 200, accepted.text)
  return { requestId, responseId }
}

/**
 * The invariants of assignment, read through the API as the requester: an in_progress request has
 * exactly one accepted response, that of its assigned volunteer; an approved one has none and nobody assigned.
 */
export async function assertConsistent (t: TestApp, requester: Account, requestId: number): Promise<{ status: string, responses: Array<{ id: number, volunteer_id: number, status: string }> }> {
  const request = await t.get(`/requests/${requestId}`, requester.token)
  assert.equal(request.status, 200, request.text)
  const list = await t.get(`/requests/${requestId}/responses`, requester.token)
  assert.equal(list.status, 200, list.text)
  const accepted = list.body.filter((r: { status: string }) => r.status === 'accepted')
  if (request.body.status === 'in_progress') {
    assert.equal(accepted.length, 1)
    assert.equal(accepted[0].volunteer_id, request.body.assigned_volunteer_id)
    assert.equal(list.body.filter((r: { status: string }) => r.status === 'pending').length, 0)
  } else {
    assert.equal(request.body.status, 'approved')
    assert.equal(accepted.length, 0)
    assert.equal(request.body.assigned_volunteer_id, null)
  }
  return { status: request.body.status, responses: list.body }
}

/** How many answers had each status: `{ 200: 1, 400: 9 }`. */
export function tally (results: ReadonlyArray<{ status: number }>): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

/** A fresh requester, a fresh approved request of theirs, and a fresh volunteer. */
export async function freshScene (t: TestApp, moderator: Account): Promise<{ requester: Account, volunteer: Account, requestId: number }> {
  const requester = await t.register({ first_name: 'Rita', last_name: 'Asker' })
  const volunteer = await t.register({ first_name: 'Vera', last_name: 'Helper' })
  return { requester, volunteer, requestId: await approvedRequest(t, requester, moderator) }
}

/** The request's responses as `token` sees them (200 asserted). */
export async function responsesListed (t: TestApp, requestId: number, token: string): Promise<Array<Record<string, unknown>>> {
  const res = await t.get(`/requests/${requestId}/responses`, token)
  assert.equal(res.status, 200, res.text)
  return res.body as Array<Record<string, unknown>>
}
