import { randomBytes, randomInt } from 'node:crypto'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type APIRequestContext } from '@playwright/test'
import type { Person } from './journeys.js'

/**
 * Texts with a test service, which has no SMPP gateway (docs/api/messaging.md › Texts › Without a gateway: files): what
 * it sends is one JSON file each in SMS_DIR (web/e2e/server.ts puts it at E2E_SMS_DIR/<port>), and a text a person
 * sends is a file dropped into SMS_DIR/incoming/, as `npm run sms:receive` writes it.
 */

const dirOf = (baseURL: string) => join(process.env.E2E_SMS_DIR ?? '', new URL(baseURL).port)

/** A German mobile number no other test uses, in E.164. */
export const uniqueMobile = (): string => `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`

async function textsTo (baseURL: string, e164: string): Promise<Array<{ to: string, text: string, created_at: string }>> {
  const dir = dirOf(baseURL)
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json'))
  const texts = await Promise.all(names.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as { to: string, text: string, created_at: string }))
  return texts.filter((text) => text.to === e164).sort((a, b) => a.created_at.localeCompare(b.created_at))
}

/** The text sent to `e164` after `count` earlier ones. */
export async function nextText (baseURL: string, e164: string, count = 0): Promise<string> {
  let found: string | undefined
  await expect.poll(async () => {
    found = (await textsTo(baseURL, e164))[count]?.text
    return found !== undefined
  }, { timeout: 15_000, message: `a text to ${e164}` }).toBe(true)
  return found!
}

async function call (api: APIRequestContext, person: Person, method: 'PATCH' | 'POST', path: string, data: unknown): Promise<void> {
  const response = await api.fetch(`/api/v1${path}`, { method, headers: { authorization: `Bearer ${person.token}` }, data })
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true)
}

/** Gives `person` a new mobile number and confirms it with the code texted to it, through the API; the number. */
export async function confirmPhone (api: APIRequestContext, baseURL: string, person: Person): Promise<string> {
  const e164 = uniqueMobile()
  await call(api, person, 'PATCH', '/users/me', { phone: e164 })
  await call(api, person, 'POST', '/users/me/phone/verify', {})
  const code = /\b(\d{6})\b/.exec(await nextText(baseURL, e164))?.[1]
  await call(api, person, 'POST', '/users/me/phone/verify/confirm', { code })
  return e164
}

/** A text from `from`, as a person would send it: written under a dot name first, so that the service never reads half of it. */
export async function sendText (baseURL: string, from: string, text: string): Promise<void> {
  const folder = join(dirOf(baseURL), 'incoming')
  await mkdir(folder, { recursive: true })
  const name = `${Date.now()}-${randomBytes(6).toString('hex')}.json`
  await writeFile(join(folder, `.${name}`), `${JSON.stringify({ from, text, received_at: new Date().toISOString() })}\n`)
  await rename(join(folder, `.${name}`), join(folder, name))
}
