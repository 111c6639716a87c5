import assert from 'node:assert/strict'
import { loadConfig } from '../../../../src/config.js'
import { TEST_SECRET } from '../../../helpers/app.js'
import { assertStatus } from '../../../helpers/assert.js'
import { type Row, VIEW_REPORTS_REQUIRED, req, signedIn } from '../rows.js'

/** docs/api/visit-checks.md: these rows run on an app with VISIT_CHECKS=on (test/http/visits.test.ts shows it off). */
export const VISIT_CHECKS_ON = { visits: { ...loadConfig({ JWT_SECRET: TEST_SECRET }).visits, checks: 'on' as const } }

const ONLY_ASSIGNED = [403, 'only the assigned volunteer can do this'] as const
const ONLY_REQUESTER = [403, 'only the requester can do this'] as const
const ONLY_PARTIES = [403, 'only the assigned volunteer or the requester can see this'] as const

/** Visit checks, hours and mileage, and the volunteers CSV. */
export const ROWS: readonly Row[] = [
  // The two sides of the visit only; before a check-in all null.
  {
    op: 'GET /requests/{id}/visit',
    state: 'assigned',
    path: (s) => `${req(s)}/visit`,
    expect: signedIn(ONLY_PARTIES, { assigned: 200, requester: 200 }),
    see: (res) => assert.deepEqual(res.body, { checked_in_at: null, checked_out_at: null }),
  },
  // Nobody is assigned to an open request: nobody may check in.
  { op: 'POST /requests/{id}/visit/check-in', state: 'open', title: 'nobody assigned', path: (s) => `${req(s)}/visit/check-in`, expect: signedIn(ONLY_ASSIGNED) },
  { op: 'POST /requests/{id}/visit/check-in', state: 'assigned', path: (s) => `${req(s)}/visit/check-in`, expect: signedIn(ONLY_ASSIGNED, { assigned: 200 }) },
  {
    op: 'POST /requests/{id}/visit/check-out',
    state: 'assigned',
    path: (s) => `${req(s)}/visit/check-out`,
    prepare: async (s, t) => assertStatus(await t.post(`${req(s)}/visit/check-in`, undefined, s.assigned.token), 200),
    expect: signedIn(ONLY_ASSIGNED, { assigned: 200 }),
  },
  // The requester's side only (a coordinator is one only on a client's request; the scenario's is no client's).
  { op: 'POST /requests/{id}/visit/helper-left', state: 'assigned', path: (s) => `${req(s)}/visit/helper-left`, expect: signedIn(ONLY_REQUESTER, { requester: 200 }) },
  {
    op: 'POST /requests/{id}/visit/expenses',
    state: 'assigned',
    path: (s) => `${req(s)}/visit/expenses`,
    body: () => ({ minutes: 30, distance_km: 4.2 }),
    expect: signedIn(ONLY_ASSIGNED, { assigned: [400, 'request is not completed'] }),
  },
  {
    op: 'GET /reports/volunteers.csv',
    state: 'assigned',
    path: () => '/reports/volunteers.csv',
    expect: signedIn(VIEW_REPORTS_REQUIRED, { admin: 200 }),
    see: (res) => assert.match(res.text, /^volunteer_id,name,visits,minutes,distance_km,amount\r\n/),
  },
]
