import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectSaid, tabTo, test } from './fixtures.js'
import { approve, createRequest, getAs, offer, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { go, h1, phone, scan } from './phone.js'
import { say, signInAs, type Lang } from './say.js'

/**
 * A carer acting on the person's request in the browser (docs/api/on-behalf.md › Carers and docs/web/on-behalf.md), by keyboard with axe, in English and
 * German, at 320 px: from "Helping Rita" to her request, captioned as hers, Carl turns down one offer and accepts
 * another for her, the timeline saying he did it for her, then marks it done with a rating; what Rita did not
 * grant (cancel) is not offered; and a grant stopped while his page was open is refused in words.
 */

/** Rita's approved request with offers from Vera and Otto, and Carl her carer by an accepted grant of `can`. */
async function ritasRequest (api: APIRequestContext, can: string[]) {
  const point = uniquePoint()
  const rita = await registerPerson(api, 'Rita', 'Person')
  const carl = await registerPerson(api, 'Carl', 'Carer')
  const grant = await postAs(api, '/users/me/trusted-people', rita, { email: carl.email, can }) as { id: number }
  await postAs(api, `/users/me/acting-for/${grant.id}/accept`, carl)
  const title = `Shopping for Rita (${can.join(', ')})`
  const id = await createRequest(api, rita, { ...point, title })
  await approve(api, id)
  const vera = await registerPerson(api, 'Vera', 'Helper', point)
  const otto = await registerPerson(api, 'Otto', 'Helper', point)
  await offer(api, id, vera)
  await offer(api, id, otto)
  return { rita, carl, grant: grant.id, id, title, vera, otto, ritaName: `${rita.first} ${rita.last}`, carlName: `${carl.first} ${carl.last}` }
}

/** Carl in a phone's browser of his own, signed in, on Rita's request opened from "Helping Rita". */
async function openAsCarer (browser: Parameters<typeof phone>[0], lang: Lang, carl: Person, rita: Person, title: string) {
  const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
  const { page, problems } = await phone(browser, lang)
  await signInAs(page, lang, carl)
  await page.goto(`/people-i-help/${rita.id}`)
  await expect(h1(page, s('carers.person.title', { name: `${rita.first} ${rita.last}` }))).toBeVisible()
  const link = page.getByRole('link', { name: title })
  await tabTo(page, link)
  await go(page, link, title)
  return { page, problems }
}

const entry = (page: Page, action: string) => page.locator('.timeline-item').filter({ hasText: action })

for (const lang of ['en', 'de'] as const) {
  const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)

  test(`a carer (${lang}) turns down one offer and accepts another for the person, then marks it done with a rating; no cancel without the grant`, async ({ browser, request }) => {
    const { rita, carl, id, title, vera, otto, ritaName, carlName } = await ritasRequest(request, ['accept', 'complete'])
    const { page, problems } = await openAsCarer(browser, lang, carl, rita, title)
    await expect(page.locator('.caption')).toHaveText(s('carers.act.caption', { name: ritaName }))
    await expect(page.getByRole('link', { name: s('carers.act.back', { name: ritaName }) })).toBeVisible()
    // Rita granted accept and complete, not cancel: no cancel, and neither her access log (the API's is hers).
    await expect(page.getByRole('button', { name: s('cancel.open') })).toHaveCount(0)
    await expect(page.getByRole('link', { name: s('accessLog.linkRequest') })).toHaveCount(0)

    const offers = await getAs(request, `/requests/${id}/responses`, rita) as Array<{ volunteer_id: number, volunteer_name: string }>
    const nameOf = (person: Person) => offers.find((item) => item.volunteer_id === person.id)?.volunteer_name ?? ''
    // The offers wait for an answer, Rita's or Carl's for her: not "your answer".
    await expect(page.getByText(s('offerStatus.pendingOthers'), { exact: true })).toHaveCount(2)
    await expect(page.getByText(s('offerStatus.pending'), { exact: true })).toHaveCount(0)
    const turnDown = page.getByRole('button', { name: s('offers.reject', { name: nameOf(otto) }) })
    await tabTo(page, turnDown)
    await turnDown.press('Enter')
    await expect(h1(page, title)).toBeFocused()
    await expectSaid(page, s('offers.rejectedFor', { name: nameOf(otto), person: ritaName }))
    await expect(page.getByRole('button', { name: s('offers.reject', { name: nameOf(otto) }) })).toHaveCount(0)

    await page.getByRole('button', { name: s('offers.accept', { name: nameOf(vera) }) }).press('Enter')
    await expectSaid(page, s('offers.acceptedFor', { name: nameOf(vera), person: ritaName }))
    await expect(page.getByText(s('request.statusLine', { status: s('status.in_progress') }))).toBeVisible()
    // The timeline says who did it and for whom.
    const byCarl = s('history.byFor', { name: carlName, role: s('history.roles.carer'), whom: ritaName })
    await expect(entry(page, s('history.actions.accepted'))).toContainText(byCarl)
    await scan(page)

    // "Was the help done?", then the rating, each page captioned as Rita's request.
    await go(page, page.getByRole('link', { name: s('complete.start') }), s('complete.doneQuestion'))
    await expect(page.locator('.caption')).toHaveText(s('carers.act.caption', { name: ritaName }))
    const yes = page.getByRole('radio', { name: s('complete.yes') })
    await yes.focus()
    await page.keyboard.press('Space')
    await go(page, page.getByRole('button', { name: s('complete.continue') }), s('complete.rating', { name: vera.first }))
    const five = page.getByRole('radio', { name: s('complete.stars_other', { count: 5 }) })
    await five.focus()
    await page.keyboard.press('Space')
    await page.getByRole('button', { name: s('complete.submit') }).press('Enter')
    await expect(h1(page, title)).toBeVisible()
    await expectSaid(page, s('complete.doneFor', { person: ritaName }))
    await expect(page.getByText(s('request.statusLine', { status: s('status.completed') }))).toBeVisible()
    await expect(entry(page, s('history.actions.completed'))).toContainText(byCarl)
    await scan(page)

    // The API agrees: done by Carl as her carer, for her.
    const history = await getAs(request, `/requests/${id}/history`, rita) as Array<{ action: string, actor: { id?: number, role: string }, on_behalf_of: unknown }>
    for (const action of ['accepted', 'completed']) {
      expect(history.find((item) => item.action === action)).toMatchObject({ actor: { id: carl.id, role: 'carer' }, on_behalf_of: { user_id: rita.id } })
    }
    expect(problems, 'CSP violations or uncaught errors').toEqual([])
    await page.context().close()
  })

  test(`a carer (${lang}) whose grant was stopped meanwhile is told so in words`, async ({ browser, request }) => {
    const { rita, carl, grant, id, title, vera } = await ritasRequest(request, ['accept', 'cancel'])
    const { page, problems } = await openAsCarer(browser, lang, carl, rita, title)
    // Rita stops it while Carl's page is open.
    const stopped = await request.delete(`/api/v1/users/me/trusted-people/${grant}`, { headers: { authorization: `Bearer ${rita.token}` } })
    expect(stopped.status()).toBe(204)
    const offers = await getAs(request, `/requests/${id}/responses`, rita) as Array<{ volunteer_id: number, volunteer_name: string }>
    const accept = page.getByRole('button', { name: s('offers.accept', { name: offers.find((item) => item.volunteer_id === vera.id)?.volunteer_name ?? '' }) })
    await tabTo(page, accept)
    await accept.press('Enter')
    const refused = s('carers.act.refused', { name: `${rita.first} ${rita.last}` })
    await expect(page.getByRole('alert').filter({ hasText: refused })).toBeVisible()
    await expectSaid(page, refused)
    await scan(page)
    // Cancelling is refused alike, after the dialog.
    await page.getByRole('button', { name: s('cancel.open') }).press('Enter')
    await page.getByRole('dialog').getByRole('button', { name: s('cancel.confirm') }).press('Enter')
    await expect(page.getByRole('alert').filter({ hasText: refused })).toHaveCount(2)
    const request2 = await getAs(request, `/requests/${id}`, rita) as { status: string }
    expect(request2.status).toBe('approved')
    expect(problems, 'CSP violations or uncaught errors').toEqual([])
    await page.context().close()
  })
}
