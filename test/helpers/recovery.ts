import assert from 'node:assert/strict'
import type { Config } from '../../src/config.js'
import { startApp, type TestApp, type TestAppOptions } from './app.js'
import type { Engine } from './engines.js'
import { startSmtp, type ReceivedMail, type TestSmtp } from './smtp.js'

/** The app's address in the tests' e-mails (PUBLIC_URL). */
export const RECOVERY_PUBLIC_URL = 'https://help.example.org'

/**
 * A real SMTP server, and the app on `engine` sending its e-mails there through its sending loop (every 25 ms) with
 * links to RECOVERY_PUBLIC_URL; `overrides` and `options` add to that. Close the app before the server.
 */
export async function startMailingApp (engine: Engine, overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<{ smtp: TestSmtp, t: TestApp }> {
  const smtp = await startSmtp()
  const t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: RECOVERY_PUBLIC_URL, ...overrides }, { deliveryTickMs: 25, ...options })
  return { smtp, t }
}

/** The web app's session routes want this header (src/accounts/session/session.routes.ts). */
export const CSRF = { 'x-vcs-csrf': '1' }

/** The e-mails that carry a code, by subject (src/messaging/deliveries/email-texts.en.ts). */
export const CODE_SUBJECTS = ['Your sign-in code', 'Reset your password', 'Confirm your e-mail address']

/**
 * The code of an account e-mail (docs/api/accounts.md › Getting back in), read as a person would: the six digits in its text. Also
 * checks that the link beside it carries the same code in the fragment only (docs/api/messaging.md › Deliveries and e-mail), never in a path or query.
 */
export function codeIn (mail: Pick<ReceivedMail, 'subject' | 'text'>): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1]
  assert.ok(code !== undefined, `no code in "${mail.subject}"`)
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(`code=${code}`))
  assert.ok(link !== undefined, `no link with the code in "${mail.subject}"`)
  const url = new URL(link)
  assert.ok(!url.pathname.includes(code) && !url.search.includes(code) && url.hash.includes(`code=${code}`), link)
  return code
}

/** The code of the next e-mail to `address` that carries one (skipping news such as "address confirmed"). */
export async function nextCode (smtp: TestSmtp, address: string): Promise<string> {
  for (;;) {
    const mail = await smtp.nextTo(address)
    if (CODE_SUBJECTS.includes(mail.subject)) return codeIn(mail)
  }
}
