import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { simpleParser } from 'mailparser'
import { expect } from './fixtures.js'
import { approve, createRequest, uniquePoint, type Person } from './journeys.js'

/**
 * The e-mails of the service under test: it runs without SMTP_URL (server.ts), so each one is an `.eml` file in its
 * MAIL_DIR: E2E_MAIL_DIR/<port> where server.ts sets that (the getting-back-in tests' set-up), else DATA_DIR/mail,
 * and DATA_DIR is `data` in the folder the server starts in (the repository's).
 */
const mailDir = (): string => process.env.E2E_MAIL_DIR !== undefined && process.env.E2E_MAIL_DIR !== ''
  ? join(process.env.E2E_MAIL_DIR, process.env.E2E_PORT ?? '')
  : join(new URL('../../', import.meta.url).pathname, 'data', 'mail')

/** The newest e-mail to `address` whose text matches `pattern`, waited for (deliveries go within 5 s: docs/api/messaging.md). */
export async function newestMail (address: string, pattern: RegExp): Promise<{ text: string, headers: Map<string, unknown> }> {
  let found: { text: string, headers: Map<string, unknown> } | undefined
  await expect.poll(async () => {
    const names = await readdir(mailDir()).catch(() => [] as string[])
    const mails = await Promise.all(names.filter((name) => name.endsWith('.eml')).map(async (name) => await simpleParser(await readFile(join(mailDir(), name)))))
    const mine = mails.filter((mail) => [mail.to].flat().some((to) => to?.value.some((entry) => entry.address === address)) && pattern.test(mail.text ?? ''))
      .sort((a, b) => (b.date?.getTime() ?? 0) - (a.date?.getTime() ?? 0))
    found = mine[0] === undefined ? undefined : { text: mine[0].text ?? '', headers: mine[0].headers }
    return found !== undefined
  }, { timeout: 15_000, message: `an e-mail to ${address} in ${mailDir()}` }).toBe(true)
  return found!
}

/**
 * Has the service send `person` a notification e-mail (their request approved, on by default) and returns the
 * unsubscribe token of its footer link (docs/api/messaging.md › Deliveries and e-mail: `/unsubscribe#token=…`), with the type it stops.
 */
export async function unsubscribeTokenFor (api: APIRequestContext, person: Person): Promise<{ token: string, type: string }> {
  const id = await createRequest(api, person, { ...uniquePoint(), title: 'Lift to the market' })
  await approve(api, id)
  const mail = await newestMail(person.email, /\/unsubscribe#token=/)
  const token = /\/unsubscribe#token=([^\s>\]"]+)/.exec(mail.text)![1]!
  return { token: decodeURIComponent(token), type: 'request_approved' }
}
