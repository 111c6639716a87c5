import { randomInt } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type APIRequestContext } from '@playwright/test'
import { writeIncomingText } from '../../src/messaging/sms/file-gateway.js'
import type { Person } from './journeys.js'

/**
 * The texts a test service wrote and the replies fed to it (no SMS_SMPP_URL: docs/api/messaging.md › Texts › Without a
 * gateway: files): each text one `<id>.json` under SMS_DIR, which web/e2e/server.ts puts at E2E_SMS_DIR/<port>; a reply
 * a file in its `incoming/`, written as `npm run sms:receive` writes it, which the service takes within a second.
 * Polled: texts leave through the outbox, within seconds of the call that caused them.
 */
export interface Text { to: string, text: string, created_at: string }

const dirOf = (baseURL: string): string => join(process.env.E2E_SMS_DIR ?? '', new URL(baseURL).port)

async function textsTo (baseURL: string, to: string): Promise<Text[]> {
  const dir = dirOf(baseURL)
  const names = await readdir(dir).catch(() => [] as string[])
  const texts = await Promise.all(names.filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as Text))
  return texts.filter((text) => text.to === to).sort((a, b) => a.created_at.localeCompare(b.created_at))
}

export const countTexts = async (baseURL: string, to: string): Promise<number> => (await textsTo(baseURL, to)).length

/** The newest text to `to` after `count` earlier ones (so that a test waits for the one its action sent). */
export async function nextText (baseURL: string, to: string, count: number): Promise<Text> {
  let found: Text | undefined
  await expect.poll(async () => {
    const texts = await textsTo(baseURL, to)
    found = texts.length > count ? texts.at(-1) : undefined
    return found !== undefined
  }, { timeout: 15_000, message: `a text to ${to}` }).toBe(true)
  return found!
}

/** The 6-digit code of the text that confirms a phone. */
export function codeIn (text: Text): string {
  const code = /\b(\d{6})\b/.exec(text.text)?.[1]
  if (code === undefined) throw new Error(`no code in "${text.text}"`)
  return code
}

/** A text from `from` to the service, as a person's reply ("STOP"). */
export async function replyFrom (baseURL: string, from: string, text: string): Promise<void> {
  await writeIncomingText(dirOf(baseURL), from, text)
}

/** A German mobile number of its own for each test (0151 and eight digits), in E.164: each number has its daily texts. */
export const uniqueMobile = (): string => `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`

async function call (api: APIRequestContext, person: Person, method: 'PATCH' | 'POST', path: string, data: unknown): Promise<void> {
  const response = await api.fetch(`/api/v1${path}`, { method, headers: { authorization: `Bearer ${person.token}` }, data })
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true)
}

/** Gives `person` a new mobile number and confirms it with the code texted to it, through the API; the number. */
export async function confirmPhone (api: APIRequestContext, baseURL: string, person: Person): Promise<string> {
  const e164 = uniqueMobile()
  await call(api, person, 'PATCH', '/users/me', { phone: e164 })
  await call(api, person, 'POST', '/users/me/phone/verify', {})
  await call(api, person, 'POST', '/users/me/phone/verify/confirm', { code: codeIn(await nextText(baseURL, e164, 0)) })
  return e164
}
