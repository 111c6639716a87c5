import { startApp, type TestApp } from './app.js'
import { assertStatus } from './assert.js'
import type { Engine } from './engines.js'

/** The app on `engine` and the OpenAPI document it serves at GET /openapi.json (200 asserted). */
export async function startWithDocument (engine: Engine): Promise<{ t: TestApp, doc: any }> {
  const t = await startApp(engine)
  const res = await t.get('/openapi.json')
  assertStatus(res, 200)
  return { t, doc: res.body }
}
