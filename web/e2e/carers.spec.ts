import { expect, expectSaid, fill, scanA11y, tabTo, test } from './fixtures.js'
import { getAs, postAs, registerPerson } from './journeys.js'
import { go, h1, phone, scan } from './phone.js'
import { say, signInAs } from './say.js'

/**
 * Carers in the browser (docs/api/on-behalf.md › Carers and docs/web/on-behalf.md), by keyboard with axe, in English and German, at 320 px: Rita invites
 * Carl by e-mail address choosing what he may do (one question a page, the error summary on an empty address);
 * Carl, in a second browser, accepts and asks for help for Rita through the same questions a requester answers;
 * Rita stops it with a confirmation, and Carl's page then says he no longer helps her.
 */

for (const lang of ['en', 'de'] as const) {
  test(`carers (${lang}): invite with chosen permissions, accept in a second browser, ask for help for the person, stop it at once`, async ({ browser, request }) => {
    test.setTimeout(120_000)
    const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
    const rita = await registerPerson(request, 'Rita', 'Person')
    const carl = await registerPerson(request, 'Carl', 'Carer')
    const ritaName = `${rita.first} ${rita.last}`
    const carlName = `${carl.first} ${carl.last}`

    // Rita: from the start page to "People who help me", by Tab and Enter.
    const ritas = await phone(browser, lang)
    const page = ritas.page
    await signInAs(page, lang, rita)
    const link = page.getByRole('main').getByRole('link', { name: s('carers.helpers.title') })
    await tabTo(page, link)
    await go(page, link, s('carers.helpers.title'))
    await expect(page.getByText(s('carers.helpers.none'))).toBeVisible()
    await go(page, page.getByRole('link', { name: s('carers.helpers.invite') }), s('carers.invite.email'))

    // Continue without an address: the summary takes focus, its link leads to the field.
    await page.getByRole('button', { name: s('ask.continue'), exact: true }).press('Enter')
    const summary = page.locator('.error-summary')
    await expect(summary).toBeFocused()
    await expect(summary.getByRole('link')).toHaveText([s('carers.invite.errors.emailRequired')])
    await expect(page).toHaveTitle(new RegExp(`^${s('errors.titlePrefix')} `))
    await scan(page)
    await summary.getByRole('link').press('Enter')
    await expect(page.getByRole('textbox', { name: s('carers.invite.email') })).toBeFocused()
    await page.keyboard.type(carl.email)
    await go(page, page.getByRole('button', { name: s('ask.continue'), exact: true }), s('carers.invite.what', { email: carl.email }))

    // Each permission in plain words; seeing requests and messages is always given and said so.
    await expect(page.getByText(s('carers.invite.always'))).toBeVisible()
    for (const can of ['create', 'cancel']) {
      const box = page.getByRole('checkbox', { name: s(`carers.can.${can}`) })
      await box.focus()
      await page.keyboard.press('Space')
      await expect(box).toBeChecked()
    }
    await expect(page.getByRole('checkbox', { name: s('carers.can.accept') })).not.toBeChecked()
    await go(page, page.getByRole('button', { name: s('carers.invite.send') }), s('carers.helpers.title'))
    await expectSaid(page, s('carers.invite.sent', { email: carl.email }))
    const invited = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: carl.email }) })
    await expect(invited).toContainText(s('carers.status.invited'))
    await expect(invited.locator('.can-list li')).toHaveText([s('carers.can.follow'), s('carers.can.create'), s('carers.can.cancel')])

    // Carl, in a browser of his own: the invitation on "People I help", accepted by keyboard.
    const carls = await phone(browser, lang)
    const other = carls.page
    await signInAs(other, lang, carl)
    await go(other, other.getByRole('main').getByRole('link', { name: s('carers.helping.title') }), s('carers.helping.title'))
    const invitation = other.getByRole('listitem').filter({ has: other.getByRole('heading', { level: 3, name: s('carers.helping.asks', { name: ritaName }) }) })
    await expect(invitation.locator('.can-list li')).toHaveText([s('carers.youCan.follow', { name: ritaName }), s('carers.youCan.create', { name: ritaName }), s('carers.youCan.cancel', { name: ritaName })])
    await other.getByRole('button', { name: s('carers.helping.accept', { name: ritaName }) }).press('Enter')
    await expect(h1(other, s('carers.helping.title'))).toBeFocused()
    await expectSaid(other, s('carers.helping.accepted', { name: ritaName }))
    await scan(other)
    await go(other, other.getByRole('link', { name: ritaName }), s('carers.person.title', { name: ritaName }))
    await expect(other.getByText(s('carers.person.noRequests', { name: ritaName }))).toBeVisible()

    // Carl asks for help for Rita: the requester's questions, captioned with her name, without "At my home" (his).
    await go(other, other.getByRole('link', { name: s('carers.person.ask', { name: ritaName }) }), s('ask.for.kind', { name: ritaName }))
    await expect(other.locator('.caption')).toHaveText(s('carers.askFor', { name: ritaName }))
    const choose = async (name: string) => {
      const radio = other.getByRole('radio', { name, exact: true })
      await radio.focus()
      await other.keyboard.press('Space')
      await expect(radio).toBeChecked()
    }
    const next = async (heading: string, button = s('ask.continue')) => { await go(other, other.getByRole('button', { name: button, exact: true }), heading) }
    await choose(s('kinds.1'))
    await next(s('ask.titleField'))
    await fill(other, s('ask.titleField'), 'Shopping for Rita')
    await next(s('ask.for.description', { name: ritaName }))
    await fill(other, s('ask.for.description', { name: ritaName }), 'Milk, bread and apples from the market')
    await next(s('ask.for.placeQuestion', { name: ritaName }))
    await expect(other.getByRole('radio', { name: s('ask.place.home') })).toHaveCount(0)
    await choose(s('ask.place.coordinates'))
    await next(s('ask.place.coordinatesQuestion'))
    await fill(other, s('location.latitude'), lang === 'de' ? '52,52' : '52.52')
    await fill(other, s('location.longitude'), lang === 'de' ? '13,405' : '13.405')
    await next(s('ask.addressQuestion'))
    await fill(other, s('profile.address'), '1 Main Street')
    // "How often" speaks of Rita; once here (her regular help: series-for-someone.spec.ts).
    await next(s('regular.for.often', { name: ritaName }))
    await choose(s('regular.once'))
    await next(s('ask.for.when', { name: ritaName }))
    await choose(s('ask.timing.any'))
    await next(s('ask.urgency'))
    await choose(s('urgency.medium'))
    await next(s('ask.for.contactQuestion', { name: ritaName }))
    await expect(other.getByRole('textbox', { name: `${s('ask.phone')} ${s('form.optional')}` })).toHaveValue('')
    await next(s('ask.for.checkHeading', { name: ritaName }))
    await expect(other.locator('.inset-text')).toHaveText(s('carers.person.checkFor', { name: ritaName }))
    await next(s('carers.person.title', { name: ritaName }), s('ask.send'))
    await expectSaid(other, s('carers.person.sent', { name: ritaName }))
    await expect(other.getByRole('heading', { level: 3, name: 'Shopping for Rita' })).toBeVisible()
    // The request is Rita's own (requester_id), made by Carl.
    const ritasRequests = await getAs(request, '/requests/my', rita) as Array<{ title: string }>
    expect(ritasRequests.map((item) => item.title)).toEqual(['Shopping for Rita'])

    // Rita sees Carl's name once accepted, and stops it at once, after a confirmation.
    await page.reload()
    await expect(h1(page, s('carers.helpers.title'))).toBeVisible()
    const accepted = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: carlName }) })
    await expect(accepted).toContainText(s('carers.status.accepted'))
    const stop = page.getByRole('button', { name: s('carers.stop.open', { name: carlName }) })
    await tabTo(page, stop)
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: s('carers.stop.title', { name: carlName }) })
    await expect(dialog).toBeVisible()
    await scanA11y(page, '[role=dialog]')
    // Escape keeps it, and focus returns to the button.
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(stop).toBeFocused()
    await page.keyboard.press('Enter')
    await dialog.getByRole('button', { name: s('carers.stop.confirm') }).press('Enter')
    await expect(h1(page, s('carers.helpers.title'))).toBeFocused()
    await expectSaid(page, s('carers.stop.done', { name: carlName }))
    await expect(page.getByText(s('carers.helpers.none'))).toBeVisible()
    await scan(page)

    // Carl's page says so at once (the next time it asks), and his list no longer has her.
    await other.reload()
    await expect(h1(other, s('carers.person.stoppedTitle'))).toBeVisible()
    await expect(other.getByText(s('carers.person.stoppedText'))).toBeVisible()
    await scan(other)
    await go(other, other.getByRole('link', { name: s('carers.person.backToList') }), s('carers.helping.title'))
    await expect(other.getByText(s('carers.helping.none'))).toBeVisible()
    // Asking for her by the old address is refused in words too.
    await other.goto(`/ask?for=${rita.id}`)
    await expect(h1(other, s('carers.person.cannotAsk'))).toBeVisible()

    expect([...ritas.problems, ...carls.problems], 'CSP violations or uncaught errors').toEqual([])
    await page.context().close()
    await other.context().close()
  })
}

test('a carer stops helping from their side, after a confirmation; the person sees it declined (en, 320 px)', async ({ page, request, checkA11y }) => {
  const rita = await registerPerson(request, 'Rita', 'Person')
  const carl = await registerPerson(request, 'Carl', 'Carer')
  const ritaName = `${rita.first} ${rita.last}`
  const { id } = await postAs(request, '/users/me/trusted-people', rita, { email: carl.email, can: ['follow'] }) as { id: number }
  await postAs(request, `/users/me/acting-for/${id}/accept`, carl)
  await page.setViewportSize({ width: 320, height: 800 })
  await signInAs(page, 'en', carl)
  await page.goto(`/people-i-help/${rita.id}`)
  await expect(h1(page, `Helping ${ritaName}`)).toBeVisible()
  // Without `create` there is no "Ask for help for Rita".
  await expect(page.getByRole('link', { name: `Ask for help for ${ritaName}` })).toHaveCount(0)
  await checkA11y()
  const stop = page.getByRole('button', { name: `Stop helping ${ritaName}` })
  await tabTo(page, stop)
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: `Stop helping ${ritaName}?` })
  await dialog.getByRole('button', { name: 'Yes, stop helping' }).press('Enter')
  await expect(h1(page, 'You no longer help this person')).toBeFocused()
  await expectSaid(page, `You no longer help ${ritaName}.`)
  await checkA11y()
  const hers = await getAs(request, '/users/me/trusted-people', rita) as Array<{ status: string }>
  expect(hers.map((item) => item.status)).toEqual(['declined'])
})
