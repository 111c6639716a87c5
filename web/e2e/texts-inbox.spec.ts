import type { APIRequestContext } from '@playwright/test'
import { E2E_ADMIN } from './accounts.js'
import { expect, expectAnnounced, expectNoHorizontalScroll, scanA11y, tabTo, test } from './fixtures.js'
import { admin, followNav, germanPage, getAs, giveRole, navLink, registerPerson, signIn, type Person } from './journeys.js'
import { confirmPhone, nextText, replyFrom } from './sms.js'

/** docs/api/messaging.md › Texts › The inbox and docs/web/messaging.md › The texts inbox: texts the service did not understand, dealt with by keyboard. */

/** `person` confirms a new number and sends `texts` from it, one after the other; resolves once a moderator or admin sees them all. */
async function textsFrom (api: APIRequestContext, baseURL: string, person: Person, texts: string[], sorry: string): Promise<void> {
  const e164 = await confirmPhone(api, baseURL, person)
  for (const text of texts) {
    await replyFrom(baseURL, e164, text)
    // One at a time, so that each has its own moment and the list's order is the order they were sent in.
    await expect.poll(async () => (await getAs(api, '/sms/inbox?limit=100', { token: await admin(api) }) as Array<{ text: string }>).some((item) => item.text === text)).toBe(true)
  }
  // The code, then one "sorry" however many texts it did not understand that day.
  expect((await nextText(baseURL, e164, 1)).text).toBe(sorry)
}

test.describe('The texts inbox', () => {
  test('a moderator marks texts dealt with by keyboard; focus moves to the next text, then to the list\'s heading', async ({ page, request, baseURL, checkA11y }) => {
    const rosa = await registerPerson(request, 'Rosa', 'Texter')
    await textsFrom(request, baseURL!, rosa, ['Can someone call me back?', 'Is anyone coming on Tuesday?'], 'Sorry, we did not understand. Reply HELP for help.')
    const mona = await registerPerson(request, 'Mona', 'Moderator')
    await giveRole(request, mona, 2)
    await signIn(page, mona)
    await followNav(page, 'Moderation', 'Requests waiting for a decision')
    await page.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Texts' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Texts' })).toBeFocused()
    await expect(page).toHaveTitle('Texts – Neighbourly help')
    await expect(page.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Texts' })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByRole('heading', { level: 2, name: '2 texts to deal with' })).toBeVisible()
    const cards = page.getByRole('article')
    // Newest first, each with who sent it and when, and the words.
    await expect(cards.nth(0)).toContainText('Is anyone coming on Tuesday?')
    await expect(cards.nth(1)).toContainText('Can someone call me back?')
    await expect(cards.nth(0).getByRole('heading', { level: 3 })).toHaveText(/^From Rosa Texter, \d+ \w+ \d{4}/)
    await checkA11y()

    const byWords = (words: string) => page.getByRole('article').filter({ hasText: words })
    // Two texts within a minute have one heading: their buttons are told apart by the first words.
    const mark = page.getByRole('button', { name: /^Mark as dealt with: From Rosa Texter, .*: “Is anyone coming on Tuesday\?”$/ })
    await tabTo(page, mark)
    await page.keyboard.press('Enter')
    await expectAnnounced(page, 'The text from Rosa Texter is marked as dealt with.')
    await expect(byWords('Can someone call me back?').getByRole('heading', { level: 3 })).toBeFocused()
    await expect(page.getByRole('heading', { level: 2, name: '1 text to deal with' })).toBeVisible()
    // Moved down among those dealt with, by the moderator.
    const dealt = page.getByRole('region', { name: 'Dealt with' })
    await expect(dealt.getByRole('article')).toHaveCount(1)
    await expect(dealt.getByRole('article')).toContainText('Is anyone coming on Tuesday?')
    await expect(dealt.getByRole('article').getByRole('definition')).toHaveText('you')
    await expect(dealt.getByRole('button')).toHaveCount(0)
    await checkA11y()

    // The last one: focus goes to the list's heading, which says none is left.
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: /^Mark as dealt with: From Rosa Texter, .*: “Can someone call me back\?”$/ })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 2, name: '0 texts to deal with' })).toBeFocused()
    await expect(page.getByText('There are no texts to deal with.')).toBeVisible()
    await expect(dealt.getByRole('article')).toHaveCount(2)
    await checkA11y()
    // As the API has it: the moderator dealt with both.
    const items = await getAs(request, '/sms/inbox?limit=100', mona) as Array<{ text: string, handled_by: number | null }>
    expect(items.filter((item) => item.text.startsWith('Can someone') || item.text.startsWith('Is anyone')).map((item) => item.handled_by)).toEqual([mona.id, mona.id])
  })

  test('German, an admin among the coordinators\' pages at 320 px: every page passes axe and nothing scrolls sideways', async ({ browser, request, baseURL }) => {
    const jonas = await registerPerson(request, 'Jonas', 'Weber', { locale: 'de' })
    await textsFrom(request, baseURL!, jonas, ['Wann kommt jemand?'], 'Entschuldigung, wir haben Sie nicht verstanden. Antworten Sie HILFE für Hilfe.')
    const page = await germanPage(browser, E2E_ADMIN, E2E_ADMIN.password, 320)
    const scan = async () => {
      await scanA11y(page)
      await expectNoHorizontalScroll(page)
    }
    await (await navLink(page, 'Klienten', { nav: 'Hauptmenü', menu: 'Menü' })).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Klient finden oder anlegen' })).toBeFocused()
    await page.getByRole('navigation', { name: 'Seiten der Koordination' }).getByRole('link', { name: 'SMS' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'SMS' })).toBeFocused()
    await expect(page.getByRole('heading', { level: 2, name: '1 SMS zu erledigen' })).toBeVisible()
    const card = page.getByRole('article').filter({ hasText: 'Wann kommt jemand?' })
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(/^Von Jonas Weber, \d+\. \S+ \d{4}/)
    await scan()
    const mark = card.getByRole('button', { name: /^Als erledigt markieren: Von Jonas Weber, .*: „Wann kommt jemand\?“$/ })
    await tabTo(page, mark, 60)
    await page.keyboard.press('Enter')
    await expectAnnounced(page, 'Die SMS von Jonas Weber ist als erledigt markiert.')
    await expect(page.getByRole('heading', { level: 2, name: '0 SMS zu erledigen' })).toBeFocused()
    await expect(page.getByRole('region', { name: 'Erledigt' }).getByRole('article').filter({ hasText: 'Wann kommt jemand?' }).getByRole('definition')).toHaveText('Ihnen')
    await scan()
  })
})
