import { request as apiRequest } from '@playwright/test'
import { expect, test } from './fixtures.js'
import { inProgress, postAs, registerPerson, uniquePoint } from './journeys.js'
import { OUT, signInAs, SIZES } from './shots.js'

// The e2e service with VISIT_CHECKS=on (web/e2e/server.ts).
const VISITS_URL = `http://127.0.0.1:${process.env.E2E_VISITS_PORT}`

test('screenshots of help once at a set time, and of a visit checked in', async ({ browser, request }) => {
  const rosa = await registerPerson(request, 'Rosa', 'Requester', { ...uniquePoint(), address: 'Lindenweg 4' })
  const visits = await apiRequest.newContext({ baseURL: VISITS_URL })
  const { rita, vera, id } = await inProgress(visits, 'Lift to the eye clinic')
  await postAs(visits, `/requests/${id}/visit/check-in`, vera)
  const day = new Date(Date.now() + 2 * 86_400_000)
  for (const size of SIZES) {
    const shot = async (page: Parameters<typeof signInAs>[0], name: string) => {
      await page.evaluate(() => document.fonts.ready)
      await page.screenshot({ path: `${OUT}/${name}-${size.name}.png`, fullPage: size.name === 'desktop' })
    }
    // "When is it?", from answers as the question pages keep them.
    const asking = await browser.newContext({ locale: 'en-GB', viewport: { width: size.width, height: size.height } })
    const page = await asking.newPage()
    await signInAs(page, rosa.email)
    await page.evaluate(({ key, answers }) => { sessionStorage.setItem(key, answers) }, {
      key: `ask-answers:${rosa.id}`,
      answers: JSON.stringify({ kind: '1', title: 'Lift to the eye doctor', description: 'Appointment at ten; please wait and bring me back.', place: 'home', often: 'once', timing: 'at', onDay: `${day.getFullYear()}-${day.getMonth() + 1}-${day.getDate()}`, startsAt: '9.30', endsAt: '' }),
    })
    await page.goto('/ask/at')
    await expect(page.getByRole('heading', { level: 1, name: 'When is it?' })).toBeVisible()
    await shot(page, 'ask-at')
    await asking.close()
    // The volunteer's and the requester's side of a visit checked in.
    for (const [person, path, name, ready] of [[vera, `/find-help/${id}`, 'visit-volunteer', 'I have left'], [rita, `/requests/${id}`, 'visit-requester', 'My helper has left']] as const) {
      const context = await browser.newContext({ baseURL: VISITS_URL, locale: 'en-GB', viewport: { width: size.width, height: size.height } })
      const side = await context.newPage()
      await signInAs(side, person.email, person.first)
      await side.goto(path)
      const button = side.getByRole('button', { name: ready, exact: true })
      await expect(button).toBeVisible()
      await side.getByRole('heading', { level: 2, name: name === 'visit-volunteer' ? 'Your visit' : 'The visit' }).scrollIntoViewIfNeeded()
      await shot(side, name)
      await context.close()
    }
  }
  await visits.dispose()
})
