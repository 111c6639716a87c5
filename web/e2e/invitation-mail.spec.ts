import type { Page } from '@playwright/test'
import { expect, expectSaid, fill, tabTo, test, uniqueEmail } from './fixtures.js'
import { PASSWORD, registerPerson } from './journeys.js'
import { nextMail } from './mail.js'
import { go, h1, phone, scan } from './phone.js'
import { say, signInAs, WIDTHS } from './say.js'

/**
 * Sabine's invitation from her mailbox, in English and German, by keyboard with axe at 320 and 1280 px: Rosa invites
 * an address that has no account; the e-mail, in Rosa's language, names Rosa and what she allows, carries none of
 * her contact data, and links to the app's invitation page; from there Sabine creates an account with that address,
 * finds the invitation on her start page and accepts it on "People I help".
 */

const PHONE = '+4930987654321'
const HOME = 'Lindenstraße 12'

/** The page at each width: its h1, axe, nothing wider than the window. */
async function atWidths (page: Page, heading: string, check: () => Promise<void> = async () => {}): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await expect(h1(page, heading)).toBeVisible()
    await check()
    await scan(page)
  }
  await page.setViewportSize({ width: 320, height: 800 })
}

for (const lang of ['en', 'de'] as const) {
  test(`an invitation to an address without an account reaches it, and leads through registering to accepting (${lang})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000)
    const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
    const rosa = await registerPerson(request, 'Rosa', 'Müller')
    const rosaName = `${rosa.first} ${rosa.last}`
    const changed = await request.patch('/api/v1/users/me', { headers: { authorization: `Bearer ${rosa.token}` }, data: { phone: PHONE, address: HOME, city: 'Berlin' } })
    expect(changed.ok()).toBe(true)
    const address = uniqueEmail('sabine')

    // Rosa, in her language, invites Sabine's address, letting her ask for help for her.
    const rosas = await phone(browser, lang)
    await signInAs(rosas.page, lang, rosa)
    await rosas.page.goto('/people-who-help-me/invite/email')
    await expect(h1(rosas.page, s('carers.invite.email'))).toBeVisible()
    await fill(rosas.page, s('carers.invite.email'), address)
    await go(rosas.page, rosas.page.getByRole('button', { name: s('ask.continue'), exact: true }), s('carers.invite.what', { email: address }))
    const create = rosas.page.getByRole('checkbox', { name: s('carers.can.create') })
    await create.focus()
    await rosas.page.keyboard.press('Space')
    await go(rosas.page, rosas.page.getByRole('button', { name: s('carers.invite.send') }), s('carers.helpers.title'))
    await expectSaid(rosas.page, s('carers.invite.sent', { email: address }))

    // The e-mail: in Rosa's language, naming her and what she allows, a link to the invitation page, none of her contact data.
    const mail = await nextMail(baseURL!, address, 0)
    expect(mail.subject).toBe(lang === 'de' ? `${rosaName} bittet Sie um Ihre Hilfe bei den eigenen Anfragen` : `${rosaName} asks you to help them with their requests for help`)
    expect(mail.text).toContain(lang === 'de' ? '• für die Person um Hilfe bitten' : '• ask for help for them')
    for (const secret of [PHONE, HOME, rosa.email]) expect(mail.text, `no ${secret} in the e-mail`).not.toContain(secret)
    const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname === '/invitation')
    expect(link, 'a link to the invitation page').toBeDefined()

    // Sabine opens the link in a browser of her own: the page says what to do, and leads to registering.
    const sabines = await phone(browser, lang)
    const page = sabines.page
    await page.goto(link!)
    await atWidths(page, s('carers.invitation.title'), async () => {
      await expect(page.getByText(s('carers.invitation.nothing'))).toBeVisible()
    })
    const register = page.getByRole('link', { name: s('carers.invitation.register') })
    await expect(page.getByRole('link', { name: s('carers.invitation.signIn') })).toHaveAttribute('href', '/sign-in?next=%2Fpeople-i-help')
    await tabTo(page, register)
    await go(page, register, s('account.registerTitle'))
    await fill(page, s('account.firstName'), 'Sabine')
    await fill(page, s('account.lastName'), 'Müller')
    await fill(page, s('account.email'), address)
    await page.getByLabel(s('account.password'), { exact: true }).focus()
    await page.keyboard.type(PASSWORD)
    await page.getByRole('button', { name: s('account.register') }).press('Enter')
    await expect(h1(page, s('home.greeting', { name: 'Sabine' }))).toBeFocused()

    // Her start page shows the invitation waiting, with the way to answer it.
    const answer = page.getByRole('link', { name: s('home.answerInvitation', { name: rosaName }) })
    await atWidths(page, s('home.greeting', { name: 'Sabine' }), async () => {
      await expect(page.getByRole('heading', { level: 2, name: s('home.invitationsHeading') })).toBeVisible()
      await expect(page.getByText(s('home.invitation', { name: rosaName }))).toBeVisible()
      await expect(answer).toBeVisible()
    })
    await tabTo(page, answer)
    await go(page, answer, s('carers.helping.title'))
    await page.getByRole('button', { name: s('carers.helping.accept', { name: rosaName }) }).press('Enter')
    await expect(h1(page, s('carers.helping.title'))).toBeFocused()
    await expectSaid(page, s('carers.helping.accepted', { name: rosaName }))
    await atWidths(page, s('carers.helping.title'), async () => {
      await expect(page.getByRole('link', { name: rosaName })).toBeVisible()
    })

    // Answered: the start page no longer shows it; Rosa sees Sabine's name on her list.
    await page.goto('/')
    await expect(h1(page, s('home.greeting', { name: 'Sabine' }))).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: s('home.invitationsHeading') })).toHaveCount(0)
    await rosas.page.reload()
    await expect(rosas.page.getByRole('heading', { level: 3, name: 'Sabine Müller' })).toBeVisible()

    // Signed in, the e-mail's link goes straight to "People I help".
    await page.goto(link!)
    await expect(h1(page, s('carers.helping.title'))).toBeVisible()
    expect([...rosas.problems, ...sabines.problems], 'CSP violations or uncaught errors').toEqual([])
    await rosas.page.context().close()
    await page.context().close()
  })
}
