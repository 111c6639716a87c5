import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import type { Config } from '../../../src/config.js'
import { startApp, type Account, type Response, type TestApp } from '../../helpers/app.js'
import { assertStatus } from '../../helpers/assert.js'
import { engines } from '../../helpers/engines.js'
import { REQUEST_INPUT, respond } from '../../helpers/lifecycle.js'
import { ACTORS, CONTACT, HOME, makeMatrixClient, PUSH_IDENTITY, req, WINDOW, type Actor, type Outcome, type Row, type Scenario, type State } from './rows.js'

/*
 * Every operation of the API × every kind of caller, with the status (and error text) each gets, so
 * that no endpoint can quietly leak or allow what it should not (docs/api/conventions.md › Authentication,
 * docs/api/help.md › Roles and permissions, Privacy, Request lifecycle). A test below fails when the OpenAPI
 * document has an operation without a row here.
 */

const describeOutcome = (outcome: Outcome) => typeof outcome === 'number' ? String(outcome) : `${outcome[0]} ${outcome[1]}`

/** Every row of one area × every kind of caller, on each engine, each on an app of its own (with `overrides` of the settings). */
export function describeMatrix (area: string, rows: readonly Row[], overrides: Partial<Config> = {}): void {
  for (const engine of engines()) {
    describe(`authorization matrix: ${area} operations × every kind of caller (${engine})`, () => {
      let t: TestApp
      /** Approves and rejects the scenarios' requests; none of the actors. */
      let setup: Account
      let volunteer: Account
      let coordinator: Account
      let moderator: Account
      let admin: Account
      const shared = new Map<State, Promise<Scenario>>()
      let spots = 0

      before(async () => {
        t = await startApp(engine, overrides, { push: PUSH_IDENTITY })
        setup = await t.registerWithRole('moderator')
        moderator = await t.registerWithRole('moderator')
        admin = await t.registerWithRole('admin')
        volunteer = await t.register()
        coordinator = await t.register()
        assertStatus(await t.post(`/admin/users/${coordinator.id}/roles/4`, undefined, t.admin.token), 200)
        await makeMatrixClient(t)
      })
      after(() => t.close())

      /**
       * A new request in `state`, with a new requester and two new responders. Shared scenarios are
       * urgent, fresh ones low: the moderation queue (most urgent first) then shows the shared pending one first.
       */
      async function scenario (state: State, urgency = 'low'): Promise<Scenario> {
        spots += 1
        const point = { lat: Number((-40 + spots * 0.01).toFixed(2)), lon: Number((20 + spots * 0.01).toFixed(2)) }
        const [requester, assigned, other] = await Promise.all([t.register(HOME), t.register(HOME), t.register(HOME)])
        const created = await t.post('/requests', { ...REQUEST_INPUT, ...CONTACT, ...WINDOW, latitude: point.lat, longitude: point.lon, urgency }, requester.token)
        assertStatus(created, 201)
        const s: Scenario = { requestId: created.body.id, requester, assigned, other, responseOf: {}, point }
        if (state === 'pending') return s
        if (state === 'rejected') {
          assertStatus(await t.post(`/moderation${req(s)}/reject`, { comment: 'Outside what volunteers may do' }, setup.token), 200)
          return s
        }
        assertStatus(await t.post(`/moderation${req(s)}/approve`, {}, setup.token), 200)
        s.responseOf = { assigned: await respond(t, s.requestId, assigned), other: await respond(t, s.requestId, other) }
        if (state === 'open') return s
        assertStatus(await t.post(`${req(s)}/responses/${s.responseOf.assigned}/accept`, undefined, requester.token), 200)
        if (state === 'cancelled') assertStatus(await t.post(`${req(s)}/cancel`, undefined, requester.token), 200)
        return s
      }

      function sharedScenario (state: State): Promise<Scenario> {
        let found = shared.get(state)
        if (found === undefined) {
          found = scenario(state, 'urgent')
          shared.set(state, found)
        }
        return found
      }

      function accountOf (actor: Actor, s: Scenario): Account | undefined {
        switch (actor) {
          case 'anonymous': return undefined
          case 'volunteer': return volunteer
          case 'coordinator': return coordinator
          case 'requester': return s.requester
          case 'other': return s.other
          case 'assigned': return s.assigned
          case 'moderator': return moderator
          case 'admin': return admin
        }
      }

      /** What a mutating row may change, read as the bootstrapped admin (no actor) or straight from the database. */
      async function snapshot (kind: 'request' | 'user', s: Scenario): Promise<string> {
        if (kind === 'request') {
          const request = await t.get(req(s), t.admin.token)
          const responses = await t.get(`${req(s)}/responses`, t.admin.token)
          return JSON.stringify([request.body.status, request.body.assigned_volunteer_id, responses.body.map((r: { id: number, status: string }) => [r.id, r.status])])
        }
        const rows = await t.db.query(/* sql */ `
          SELECT is_blocked, ARRAY(SELECT role_id FROM user_roles WHERE user_id = $1 ORDER BY role_id) AS roles,
            ARRAY(SELECT id || ':' || (revoked_at IS NULL) FROM user_checks WHERE user_id = $1 ORDER BY id) AS checks
          FROM users WHERE id = $1`, [s.requester.id])
        return JSON.stringify(rows)
      }

      /** The status (and an error's body) of an endless GET, whose stream is then let go; app.close() ends it. */
      async function streamStatus (path: string, account: Account | undefined): Promise<Response> {
        const res = await t.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: account !== undefined ? { authorization: `Bearer ${account.token}` } : {}, payloadAsStream: true })
        const stream = res.stream()
        if (res.statusCode < 300) {
          stream.destroy()
          return { status: res.statusCode, body: undefined, headers: res.headers, text: '' }
        }
        let text = ''
        for await (const chunk of stream) text += String(chunk)
        return { status: res.statusCode, body: JSON.parse(text), headers: res.headers, text }
      }

      /** One cell of the matrix; what went wrong, if anything. */
      async function cell (row: Row, actor: Actor): Promise<string | undefined> {
        const s = row.mutates !== undefined ? await scenario(row.state) : await sharedScenario(row.state)
        await row.prepare?.(s, t)
        const before = row.mutates !== undefined ? await snapshot(row.mutates, s) : undefined
        const [method, template] = row.op.split(' ') as [string, string]
        const path = row.path(s)
        assert.match(path.split('?')[0]!, new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`), `the row's path fits ${row.op}`)
        const account = accountOf(actor, s)
        const sent = await row.body?.(s, t)
        const headers = await row.headers?.(s, t)
        const res = row.stream === true
          ? await streamStatus(path, account)
          : await t.request(method as 'GET', path, { token: account?.token, body: sent, ...(headers !== undefined ? { headers } : {}) })
        const want = row.expect[actor]
        const [status, error] = typeof want === 'number' ? [want] : want
        if (res.status !== status || (error !== undefined && !isDeepStrictEqual(res.body, { error }))) {
          return `${actor}: expected ${describeOutcome(want)}, got ${res.status} ${res.text.slice(0, 200)}`
        }
        if (res.status < 300 && row.see !== undefined) {
          try {
            row.see(res, { actor, account, s, sent })
          } catch (err) {
            return `${actor}: ${(err as Error).message}`
          }
        }
        if (before !== undefined && row.mutates !== undefined) {
          const changed = await snapshot(row.mutates, s) !== before
          if (changed !== (res.status < 300)) return `${actor}: ${changed ? 'was refused but changed the state' : 'succeeded but changed nothing'}`
        }
        return undefined
      }

      for (const row of rows) {
        it(`${row.op} [${row.state}]${row.title !== undefined ? ` ${row.title}` : ''}`, async () => {
          const problems: string[] = []
          for (const actor of ACTORS) {
            const problem = await cell(row, actor)
            if (problem !== undefined) problems.push(problem)
          }
          assert.deepEqual(problems, [])
        })
      }
    })
  }
}
