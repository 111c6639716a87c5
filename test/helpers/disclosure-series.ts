import assert from 'node:assert/strict'
import type { TestApp } from './app.js'
import type { Exercise, Scene, Seen, ViewerName } from './disclosure.js'
import { requestInput } from './requests.js'

/**
 * The series operations of docs/api/schedule.md › Series for the disclosure proofs (docs/privacy.md › `ADDRESS_PRIVACY=parties`, › Access records): a series
 * carries its requester's address and contact details in `template`, and only she, moderators and admins
 * see it. Its first day lies past the horizon, so approving one creates no requests that would show up
 * in the other operations' answers.
 */

export const SERIES_ADDRESS = 'Lindenstraße 12, 3rd floor left'
const DAY_MS = 86_400_000

/** A new pending series of the scene's requester; its id. */
async function newSeries (t: TestApp, scene: Scene): Promise<number> {
  const startsOn = new Date(Date.now() + 60 * DAY_MS).toISOString().slice(0, 10)
  const body = { template: requestInput({ address: SERIES_ADDRESS }), days: ['tue'], start_time: '07:30', duration_minutes: 60, starts_on: startsOn, time_zone: 'UTC' }
  const res = await t.post('/request-series', body, scene.requester.token)
  assert.equal(res.status, 201, res.text)
  return res.body.id
}

/** The scene's own series, made on first use. */
const sceneSeries = new WeakMap<Scene, number>()
async function theSeries (t: TestApp, scene: Scene): Promise<number> {
  const id = sceneSeries.get(scene) ?? await newSeries(t, scene)
  sceneSeries.set(scene, id)
  return id
}

async function call (t: TestApp, method: 'GET' | 'POST' | 'PATCH', path: string, viewer: ViewerName, scene: Scene, body?: unknown): Promise<{ status: number, body: any }> {
  return await t.request(method, path, { token: scene.viewers[viewer].token, ...(body !== undefined ? { body } : {}) })
}

const seen = (...items: any[]): Seen[] => items.map((item) => ({ kind: 'series', item }))
const isModerator = (viewer: ViewerName) => viewer === 'moderator'

/** A decision on a new series: the moderator's answer; everyone else is refused. */
const moderatorDecides = (path: (id: number) => string, body: unknown): Exercise => async (t, scene, viewer) => {
  const res = await call(t, 'POST', path(await newSeries(t, scene)), viewer, scene, body)
  assert.equal(res.status, isModerator(viewer) ? 200 : 403, `${res.status} for the ${viewer}`)
  return isModerator(viewer) ? seen(res.body) : []
}

export const SERIES_EXERCISES: Record<string, Exercise> = {
  'POST /request-series': async (t, scene, viewer) => {
    if (viewer !== 'requester') return []
    const res = await call(t, 'GET', `/request-series/${await newSeries(t, scene)}`, viewer, scene)
    return seen(res.body)
  },
  'GET /request-series/mine': async (t, scene, viewer) => {
    await theSeries(t, scene)
    const res = await call(t, 'GET', '/request-series/mine?limit=100', viewer, scene)
    assert.equal(res.status, 200)
    if (viewer !== 'requester') assert.deepEqual(res.body, [])
    return seen(...res.body)
  },
  'GET /request-series/{id}': async (t, scene, viewer) => {
    const res = await call(t, 'GET', `/request-series/${await theSeries(t, scene)}`, viewer, scene)
    const allowed = viewer === 'requester' || isModerator(viewer)
    assert.equal(res.status, allowed ? 200 : 404)
    return allowed ? seen(res.body) : []
  },
  'PATCH /request-series/{id}': async (t, scene, viewer) => {
    const res = await call(t, 'PATCH', `/request-series/${await theSeries(t, scene)}`, viewer, scene, { duration_minutes: 90 })
    assert.equal(res.status, viewer === 'requester' ? 200 : isModerator(viewer) ? 403 : 404)
    return viewer === 'requester' ? seen(res.body) : []
  },
  'POST /request-series/{id}/end': async (t, scene, viewer) => {
    const id = await newSeries(t, scene)
    const res = await call(t, 'POST', `/request-series/${id}/end`, viewer, scene)
    const allowed = viewer === 'requester' || isModerator(viewer)
    assert.equal(res.status, allowed ? 200 : 404)
    return allowed ? seen(res.body) : []
  },
  'GET /moderation/series/pending': async (t, scene, viewer) => {
    await theSeries(t, scene)
    const res = await call(t, 'GET', '/moderation/series/pending?limit=100', viewer, scene)
    assert.equal(res.status, isModerator(viewer) ? 200 : 403)
    return isModerator(viewer) ? seen(...res.body) : []
  },
  'POST /moderation/series/{id}/approve': moderatorDecides((id) => `/moderation/series/${id}/approve`, {}),
  'POST /moderation/series/{id}/reject': moderatorDecides((id) => `/moderation/series/${id}/reject`, { comment: 'Not like this' }),
}
