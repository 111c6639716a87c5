import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll } from './fixtures.js'
import { PASSWORD, type Person } from './journeys.js'

/**
 * What a person reads, in English and German: texts from the app's own en.json and de.json, so a test
 * names things as the page does; and the steps every test in both languages takes (sign in, check a page
 * at a phone's and a desktop's width).
 */
export type Lang = 'en' | 'de'
const texts: Record<Lang, Record<string, unknown>> = {
  en: JSON.parse(readFileSync(new URL('../src/i18n/en.json', import.meta.url), 'utf8')),
  de: JSON.parse(readFileSync(new URL('../src/i18n/de.json', import.meta.url), 'utf8')),
}

/** The text of `key` in `lang`, with {{name}} placeholders filled in (what i18next does, without plurals). */
export function say (lang: Lang, key: string, values: Record<string, string | number> = {}): string {
  let node: unknown = texts[lang]
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part]
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${key}`)
  return node.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name]))
}

export const WIDTHS = [320, 1280] as const

/** A YYYY-MM-DD day typed into the date input named `legend` (GOV.UK's day, month and year fields), by the keyboard. */
export async function typeDate (page: Page, lang: Lang, legend: string, isoDay: string): Promise<void> {
  const group = page.getByRole('group', { name: legend, exact: true })
  const [year, month, day] = isoDay.split('-') as [string, string, string]
  for (const [part, value] of [['day', String(Number(day))], ['month', String(Number(month))], ['year', year]] as const) {
    const field = group.getByRole('textbox', { name: say(lang, `form.date.${part}`), exact: true })
    await field.focus()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type(value)
  }
}

export async function signInAs (page: Page, lang: Lang, person: Person): Promise<void> {
  // A second person in the same browser: the first one's session (its cookie) goes first.
  await page.context().clearCookies()
  await page.goto('/sign-in')
  await page.getByRole('textbox', { name: say(lang, 'account.email') }).fill(person.email)
  await page.getByLabel(say(lang, 'account.password'), { exact: true }).fill(PASSWORD)
  await page.getByLabel(say(lang, 'account.password'), { exact: true }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: say(lang, 'home.greeting', { name: person.first }) })).toBeFocused()
}

/** Opens `path` at each width, waits for its h1, and checks axe and that nothing scrolls sideways. */
export async function atBothWidths (page: Page, checkA11y: () => Promise<void>, heading: string, check: () => Promise<void> = async () => {}): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await check()
    await checkA11y()
    await expectNoHorizontalScroll(page)
  }
}
