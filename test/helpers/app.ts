import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { buildApp, type AppOptions } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import type { Database } from '../../src/db/database.js'
import { ADMIN_ROLE_ID, grantRole } from '../../src/accounts/roles/roles.repo.js'
import { ensureAdmin } from '../../src/accounts/roles/roles.service.js'
import { checkContract } from './contract.js'
import { migratedDatabase, type ScratchDatabase } from './databases.js'
import type { Engine } from './engines.js'

/** Cheap scrypt for speed; the production parameters are pinned by a test of their own. */
export const TEST_SCRYPT = Object.freeze({ N: 2 ** 10, r: 8, p: 1 })

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789'

export function testConfig (overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: TEST_SECRET }),
    scrypt: TEST_SCRYPT,
    // Every test registers from one address; the limits have tests of their own.
    rateLimits: { windowSeconds: 60, perAddress: 1_000_000, perAccount: 1_000_000 },
    // Never the worktree's ./data: a test that sends e-mail without SMTP_URL writes them here.
    mailDir: join(tmpdir(), 'vcs-test-mail'),
    smsDir: join(tmpdir(), 'vcs-test-sms'),
    ...overrides,
  }
}

export interface Response<T = any> {
  status: number
  body: T
  headers: Record<string, string | string[] | number | undefined>
  text: string
}

export interface Account {
  id: number
  email: string
  password: string
  token: string
  refresh: string
}

/** The roles a test may give an account beyond volunteer, by the ids the migrations give them. */
export const ROLE_IDS = { moderator: 2, admin: 3, coordinator: 4, manager: 5 } as const
export type Role = keyof typeof ROLE_IDS

let counter = 0
/** An e-mail no other test uses, so tests and files never depend on each other. */
export function uniqueEmail (label = 'user'): string {
  counter += 1
  return `${label}.${process.pid}.${counter}.${randomBytes(3).toString('hex')}@example.org`
}

export class TestApp {
  constructor (
    readonly app: FastifyInstance,
    readonly db: Database,
    readonly engine: Engine,
    readonly scratch: ScratchDatabase,
    readonly admin: Account
  ) {}

  /** A request through the whole HTTP stack; paths are relative to /api/v1. */
  async request<T = any> (method: InjectOptions['method'], path: string, options: { body?: unknown, token?: string, headers?: Record<string, string>, payload?: string, remoteAddress?: string } = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    const response = await this.app.inject({
      method,
      url: path.startsWith('/metrics') ? path : `/api/v1${path}`,
      headers,
      ...(options.remoteAddress !== undefined ? { remoteAddress: options.remoteAddress } : {}),
      ...(options.payload !== undefined ? { payload: options.payload } : options.body !== undefined ? { payload: options.body as object } : {}),
    })
    const type = String(response.headers['content-type'] ?? '')
    return {
      status: response.statusCode,
      body: (type.includes('json') && response.body !== '' ? response.json() : response.body) as T,
      headers: response.headers,
      text: response.body,
    }
  }

  get<T = any> (path: string, token?: string) { return this.request<T>('GET', path, { token }) }
  post<T = any> (path: string, body?: unknown, token?: string) { return this.request<T>('POST', path, { body, token }) }
  patch<T = any> (path: string, body?: unknown, token?: string) { return this.request<T>('PATCH', path, { body, token }) }
  delete<T = any> (path: string, token?: string) { return this.request<T>('DELETE', path, { token }) }

  /** Registers a new volunteer through the API. */
  async register (fields: Record<string, unknown> = {}): Promise<Account> {
    const email = uniqueEmail()
    const password = 'correct horse battery'
    const res = await this.post('/auth/register', { email, password, first_name: 'Test', last_name: 'User', ...fields })
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`)
    return { id: res.body.user.id, email: res.body.user.email, password, token: res.body.access_token, refresh: res.body.refresh_token }
  }

  /** A new account that also holds `role`, given through the admin API. */
  async registerWithRole (role: Role): Promise<Account> {
    const account = await this.register()
    const res = await this.post(`/admin/users/${account.id}/roles/${ROLE_IDS[role]}`, undefined, this.admin.token)
    if (res.status !== 200) throw new Error(`role assignment failed: ${res.status} ${res.text}`)
    return account
  }

  /** Serves on a real port (for streams); returns the API's base URL. */
  async listen (): Promise<string> {
    await this.app.listen({ port: 0, host: '127.0.0.1' })
    const address = this.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    return `http://127.0.0.1:${address.port}/api/v1`
  }

  async close (): Promise<void> {
    await this.app.close()
    await this.db.close()
    await this.scratch.drop()
  }
}

/**
 * What a test may set of the app's options. `deliveryTickMs` is 0 (no sending loop) unless a test asks
 * for one: the tests of e-mail and push start it, or run an OutboxSender themselves. `scheduleTickMs` and
 * `horizonTickMs` are 0 too: the schedule and series tests run ScheduleJobs and HorizonJob on their own clock; `visitTickMs`
 * too (the visit tests run VisitJobs).
 */
export type TestAppOptions = Pick<AppOptions, 'logStream' | 'streams' | 'alertTickMs' | 'horizonTickMs' | 'clock' | 'deliveryTickMs' | 'scheduleTickMs' | 'visitTickMs' | 'channels' | 'push' | 'pushAgent'>

/**
 * A migrated scratch database on `engine`, the app on it, and a bootstrapped admin. `options.clock`: a
 * ManualClock (helpers/clock.ts) for tests that move time instead of waiting for it.
 */
export async function startApp (engine: Engine, overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { db, scratch } = await migratedDatabase(engine)
  const config = testConfig(overrides)
  const app = await buildApp({ config, db, jwtSecret: TEST_SECRET, deliveryTickMs: 0, scheduleTickMs: 0, horizonTickMs: 0, visitTickMs: 0, ...options })
  checkContract(app)
  const adminEmail = uniqueEmail('admin')
  const adminPassword = 'admin password 123'
  const { id: adminId } = await ensureAdmin(db, adminEmail, adminPassword, TEST_SCRYPT)
  await grantRole(db, adminId, ADMIN_ROLE_ID, null)
  const t = new TestApp(app, db, engine, scratch, { id: adminId, email: adminEmail, password: adminPassword, token: '', refresh: '' })
  const login = await t.post('/auth/login', { email: adminEmail, password: adminPassword })
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${login.text}`)
  Object.assign(t.admin, { token: login.body.access_token, refresh: login.body.refresh_token })
  return t
}

/**
 * A second instance of the service on the same PostgreSQL database as `t`, with its own connection
 * pool, as a second server would be (PGlite is in-process, so it has no such thing). Close it before `t`.
 */
export async function startSecondInstance (t: TestApp, overrides: Partial<Config> = {}, options: Omit<TestAppOptions, 'logStream'> = {}): Promise<TestApp> {
  if (t.engine !== 'postgres') throw new Error('a second instance needs PostgreSQL')
  const db = await t.scratch.open()
  const app = await buildApp({ config: testConfig(overrides), db, jwtSecret: TEST_SECRET, deliveryTickMs: 0, scheduleTickMs: 0, horizonTickMs: 0, visitTickMs: 0, ...options })
  checkContract(app)
  return new TestApp(app, db, t.engine, { ...t.scratch, drop: async () => {} }, t.admin)
}
