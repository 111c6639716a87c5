import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import type { Account, TestApp } from './app.js'
import { until } from './deliveries.js'
import type { SmppTestServer, SubmittedText } from './smpp-server.js'

/** A German mobile number no other test uses (0151 and eight digits), in E.164. */
export function uniqueMobile (): string {
  return `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`
}

/** The next text the SMPP server took for `e164` after the first `skip` of them. */
export async function nextTextTo (server: SmppTestServer, e164: string, skip = 0): Promise<SubmittedText> {
  return await until(async () => server.submitted.filter((text) => text.to === e164.replace(/^\+/, ''))[skip], 10_000, `text number ${skip + 1} to the number`)
}

export function textsTo (server: SmppTestServer, e164: string): SubmittedText[] {
  return server.submitted.filter((text) => text.to === e164.replace(/^\+/, ''))
}

/** The six digits of a phone code text. */
export function codeIn (text: SubmittedText): string {
  const code = /\b(\d{6})\b/.exec(text.text)?.[1]
  assert.ok(code !== undefined, 'a code in the text')
  return code
}

/** Gives `account` the phone `e164` and confirms it through the API with the code texted to it. */
export async function confirmPhone (t: TestApp, server: SmppTestServer, account: Account, e164 = uniqueMobile()): Promise<string> {
  assert.equal((await t.patch('/users/me', { phone: e164 }, account.token)).status, 200)
  const before = textsTo(server, e164).length
  assert.equal((await t.post('/users/me/phone/verify', {}, account.token)).status, 202)
  const code = codeIn(await nextTextTo(server, e164, before))
  const confirmed = await t.post('/users/me/phone/verify/confirm', { code }, account.token)
  assert.equal(confirmed.status, 200, confirmed.text)
  return e164
}

/** Switches texts on for `types`. */
export async function textsOn (t: TestApp, account: Account, types: string[]): Promise<void> {
  const res = await t.request('PUT', '/users/me/notification-settings', { body: { sms: { enabled: true, types } }, token: account.token })
  assert.equal(res.status, 200, res.text)
}
