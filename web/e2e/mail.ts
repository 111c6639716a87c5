import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from '@playwright/test'
import { simpleParser } from 'mailparser'

/**
 * The e-mails a test service wrote (no SMTP_URL: one `.eml` file each under MAIL_DIR, which web/e2e/server.ts
 * puts at E2E_MAIL_DIR/<port>), parsed as a mail program would. Polled: e-mails leave through the outbox,
 * within seconds of the change that caused them (docs/api/messaging.md › Deliveries and e-mail).
 */
export interface Mail { to: string, subject: string, text: string, at: number }

async function mailsTo (port: string, address: string): Promise<Mail[]> {
  const dir = join(process.env.E2E_MAIL_DIR ?? '', port)
  const names = await readdir(dir).catch(() => [] as string[])
  const mails = await Promise.all(names.filter((name) => name.endsWith('.eml')).map(async (name) => {
    const path = join(dir, name)
    const parsed = await simpleParser(await readFile(path))
    const to = Array.isArray(parsed.to) ? parsed.to.map((one) => one.text).join(', ') : parsed.to?.text ?? ''
    return { to, subject: parsed.subject ?? '', text: parsed.text ?? '', at: (await stat(path)).mtimeMs }
  }))
  return mails.filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase())).sort((a, b) => a.at - b.at)
}

/** The newest e-mail to `address` after `count` earlier ones (so that a test waits for the one its action sent). */
export async function nextMail (baseURL: string, address: string, count: number): Promise<Mail> {
  const port = new URL(baseURL).port
  let found: Mail | undefined
  await expect.poll(async () => {
    const mails = await mailsTo(port, address)
    found = mails.length > count ? mails.at(-1) : undefined
    return found !== undefined
  }, { timeout: 15_000, message: `an e-mail to ${address}` }).toBe(true)
  return found!
}

export const countMails = async (baseURL: string, address: string): Promise<number> => (await mailsTo(new URL(baseURL).port, address)).length

/** The 6-digit code of an account e-mail. */
export function codeIn (mail: Mail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1]
  if (code === undefined) throw new Error(`no code in "${mail.subject}"`)
  return code
}

/** The link into the app that carries the code in its fragment (docs/api/messaging.md › Deliveries and e-mail), e.g. /sign-in/code#email=…&code=…. */
export function linkIn (mail: Mail, path: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname === path && url.includes('#'))
  if (link === undefined) throw new Error(`no link to ${path} in "${mail.subject}"`)
  return link
}
