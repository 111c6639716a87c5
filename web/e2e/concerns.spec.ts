import type { APIRequestContext } from '@playwright/test'
import { expect, expectAnnounced, expectNoHorizontalScroll, fill, scanA11y, test } from './fixtures.js'
import { accept, approve, choose, continueTo, createRequest, followNav, germanPage, giveRole, offer, registerPerson, signIn, uniquePoint, PASSWORD, type Person } from './journeys.js'

/** docs/api/help.md › Concerns and docs/web/help.md › Safeguarding: "Tell us you are worried", My concerns, and the moderators' queue. */

async function call (api: APIRequestContext, person: Person, method: 'GET' | 'POST', path: string, data?: unknown) {
  const response = await api.fetch(`/api/v1${path}`, { method, headers: { authorization: `Bearer ${person.token}` }, ...(data !== undefined ? { data } : {}) })
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true)
  return await response.json()
}

/** A request, approved, with an offer from a volunteer: the page the requester starts from. */
async function requestWithOffer (api: APIRequestContext, title: string) {
  const rosa = await registerPerson(api, 'Rosa', 'Requester')
  const vera = await registerPerson(api, 'Vera', 'Volunteer')
  const id = await createRequest(api, rosa, { ...uniquePoint(), title })
  await approve(api, id)
  const responseId = await offer(api, id, vera)
  return { rosa, vera, id, responseId }
}

async function moderator (api: APIRequestContext): Promise<Person> {
  const person = await registerPerson(api, 'Mona', 'Moderator')
  await giveRole(api, person, 2)
  return person
}

test.describe('Tell us you are worried', () => {
  test('the requester, about an offer: one question a page by keyboard, check, send, what happens next, My concerns', async ({ page, request, checkA11y }) => {
    const title = `Shopping ${Date.now().toString(36)}`
    const { rosa, vera, id } = await requestWithOffer(request, title)
    await signIn(page, rosa)
    await page.goto(`/requests/${id}`)
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    // One link on every offer, named with the volunteer; one for the request itself.
    const link = page.getByRole('link', { name: 'Tell us you are worried about Vera Volunteer' })
    await expect(page.getByRole('link', { name: 'Tell us you are worried', exact: true })).toBeVisible()
    await checkA11y()
    await link.press('Enter')

    await expect(page.getByRole('heading', { level: 1, name: 'What worries you?' })).toBeFocused()
    await expect(page).toHaveTitle('What worries you? – Tell us you are worried – Neighbourly help')
    const text = page.getByRole('textbox', { name: 'What worries you?' })
    await expect(text).toHaveAccessibleDescription(new RegExp(`About Vera Volunteer, on the request “${title}”`))
    // What to do when someone is in danger now, before anything else is asked.
    await expect(page.getByRole('link', { name: '112' })).toHaveAttribute('href', 'tel:112')
    await expect(page.getByRole('link', { name: '999' })).toHaveAttribute('href', 'tel:999')
    await checkA11y()

    // Too short: the summary takes focus, its link leads to the field.
    await text.focus()
    await page.keyboard.type('Odd')
    await page.getByRole('button', { name: 'Continue' }).press('Enter')
    const summary = page.getByRole('alert')
    await expect(summary).toContainText('There is a problem')
    await expect(summary).toContainText('Say what worries you in 10 to 2,000 characters')
    await expect(page).toHaveTitle(/^Error: What worries you\?/)
    await checkA11y()
    await summary.getByRole('link', { name: 'Say what worries you in 10 to 2,000 characters' }).press('Enter')
    await expect(text).toBeFocused()
    await page.keyboard.type(' questions about my bank card and my PIN.')
    await continueTo(page, 'Is someone in danger now?')
    await checkA11y()
    await page.getByRole('button', { name: 'Continue' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('Select yes if someone is in danger now')
    await choose(page, 'Yes, someone is in danger now')
    await continueTo(page, 'Check your answers before telling us')
    await checkA11y()
    const answers = page.getByRole('definition')
    await expect(answers.filter({ hasText: 'Odd questions about my bank card and my PIN.' })).toHaveCount(1)
    await expect(answers.filter({ hasText: `About Vera Volunteer, on the request “${title}”.` })).toHaveCount(1)

    // Change leads to the question and Continue back to the check page.
    await page.getByRole('link', { name: 'Change Someone in danger now' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Is someone in danger now?' })).toBeFocused()
    await choose(page, /^No$/)
    await continueTo(page, 'Check your answers before telling us')
    await page.getByRole('link', { name: 'Change Someone in danger now' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Is someone in danger now?' })).toBeFocused()
    await choose(page, 'Yes, someone is in danger now')
    await continueTo(page, 'Check your answers before telling us')

    await continueTo(page, 'Thank you for telling us', 'Send to the moderators')
    await expect(page.getByText('The moderators have your concern, marked as urgent.')).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'What happens next' })).toBeVisible()
    await expect(page.getByText('The person it is about is never told who raised it, and never sees what you wrote.')).toBeVisible()
    await expect(page.getByRole('link', { name: '112' })).toBeVisible()
    await checkA11y()

    // As sent: about the volunteer and the request, urgent; the volunteer sees none of it.
    const mine = await call(request, rosa, 'GET', '/concerns/mine')
    expect(mine[0]).toMatchObject({ subject_user_id: vera.id, request_id: id, urgent: true, status: 'open', text: 'Odd questions about my bank card and my PIN.' })
    expect(await call(request, vera, 'GET', '/concerns/mine')).toEqual([])

    // From the confirmation to My concerns.
    await page.getByRole('link', { name: 'Concerns you raised' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Concerns you raised' })).toBeFocused()
    const card = page.getByRole('article').first()
    await expect(card).toContainText('Waiting for a moderator')
    await expect(card).toContainText(title)
    await checkA11y()
    // Reached from the profile too.
    await followNav(page, 'Your profile', 'Your profile')
    await page.getByRole('link', { name: 'See the concerns you raised' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Concerns you raised' })).toBeFocused()
    // Without a request or a person there is nothing to be worried about yet: the page says where to start.
    await page.goto('/concerns/new')
    await expect(page.getByRole('heading', { level: 1, name: 'Tell us you are worried' })).toBeVisible()
    await expect(page.getByText('use “Tell us you are worried” on the page of the request')).toBeVisible()
  })

  test('German, the volunteer about the request, at 320 px: every page passes axe and nothing scrolls sideways', async ({ browser, request }) => {
    const title = `Einkauf ${Date.now().toString(36)}`
    const { rosa, vera, id, responseId } = await requestWithOffer(request, title)
    await accept(request, id, responseId, rosa)
    const page = await germanPage(browser, vera, PASSWORD, 320)
    const scan = async () => {
      await scanA11y(page)
      await expectNoHorizontalScroll(page)
    }
    await page.goto(`/requests/${id}`)
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await page.getByRole('link', { name: 'Sagen Sie uns, was Sie beunruhigt' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Was beunruhigt Sie?' })).toBeFocused()
    const text = page.getByRole('textbox', { name: 'Was beunruhigt Sie?' })
    await expect(text).toHaveAccessibleDescription(new RegExp(`Zu Rosa Requester, bei der Anfrage „${title}“`))
    await expect(page.getByRole('link', { name: '110' })).toHaveAttribute('href', 'tel:110')
    await scan()
    await page.getByRole('button', { name: 'Weiter' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('Schreiben Sie in 10 bis 2.000 Zeichen, was Sie beunruhigt')
    await scan()
    await text.focus()
    await page.keyboard.type('Die Tür war offen und niemand hat geantwortet.')
    await continueTo(page, 'Ist jemand jetzt in Gefahr?', 'Weiter')
    await scan()
    await choose(page, 'Nein')
    await continueTo(page, 'Prüfen Sie Ihre Angaben, bevor Sie sie senden', 'Weiter')
    await scan()
    await continueTo(page, 'Danke, dass Sie es uns gesagt haben', 'An die Moderation senden')
    await expect(page.getByText('Die Moderation hat Ihren Hinweis erhalten.')).toBeVisible()
    await scan()
    const mine = await call(request, vera, 'GET', '/concerns/mine')
    expect(mine[0]).toMatchObject({ subject_user_id: rosa.id, request_id: id, urgent: false })
    await page.context().close()
  })
})

test.describe('moderators: the concerns queue', () => {
  test('urgent first; decide with an outcome and a note; blocking asks first; the reporter reads the outcome', async ({ page, request, checkA11y }) => {
    const marker = Date.now().toString(36)
    const { rosa, vera, id } = await requestWithOffer(request, `Queue ${marker}`)
    // A moderator already, so that she is told of the concerns as they are raised.
    const mona = await moderator(request)
    await call(request, rosa, 'POST', '/concerns', { request_id: id, text: `Calm ${marker}: the offer reads oddly.`, urgent: false })
    await call(request, rosa, 'POST', '/concerns', { request_id: id, subject_user_id: vera.id, text: `Danger ${marker}: he asked for my PIN.`, urgent: true })
    await signIn(page, mona)
    await followNav(page, 'Moderation', 'Requests waiting for a decision')
    await page.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Concerns' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Concerns' })).toBeFocused()
    await expect(page.getByRole('navigation', { name: 'Which concerns' }).getByRole('link', { name: 'Open' })).toHaveAttribute('aria-current', 'page')
    await checkA11y()

    const ours = page.getByRole('article').filter({ hasText: marker })
    await expect(ours).toHaveCount(2)
    await expect(ours.nth(0)).toContainText(`Danger ${marker}`)
    await expect(ours.nth(0).getByRole('heading', { level: 3 })).toContainText('Urgent: someone may be in danger.')
    await expect(ours.nth(0)).toContainText('Vera Volunteer')
    await expect(ours.nth(0)).toContainText('Rosa Requester')
    await expect(ours.nth(0).getByRole('link', { name: `Queue ${marker}` })).toHaveAttribute('href', `/requests/${id}`)
    await expect(ours.nth(1)).toContainText(`Calm ${marker}`)

    // Calm, about no person: no action. Outcome and note are both required.
    const calm = ours.nth(1)
    await calm.getByRole('button', { name: /^Decide:/ }).press('Enter')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    // A concern about no person cannot block anyone.
    await expect(dialog.getByRole('radio', { name: /^Blocked/ })).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Save decision' }).press('Enter')
    await expect(dialog.getByRole('alert')).toContainText('Select a decision')
    await expect(dialog.getByRole('alert')).toContainText('Enter a note about what you found and did')
    await checkA11y('[role=dialog]')
    await dialog.getByRole('radio', { name: /^No action/ }).focus()
    await page.keyboard.press('Space')
    await fill(page, 'Note for the moderators', 'Spoke to the volunteer; a misunderstanding.')
    await dialog.getByRole('button', { name: 'Save decision' }).press('Enter')
    await expect(dialog).toHaveCount(0)
    await expectAnnounced(page, 'Concern dealt with: No action.')
    await expect(page.getByRole('article').filter({ hasText: `Calm ${marker}` })).toHaveCount(0)
    // Focus on the concern that now stands in its place (or the list's heading when none is left).
    await expect(page.locator('main :focus')).toHaveCount(1)
    expect(await page.evaluate(() => document.activeElement?.tagName)).toMatch(/^H[23]$/)

    // Urgent, about Vera: blocking asks again in words; "Go back" keeps the form as it was.
    const urgent = page.getByRole('article').filter({ hasText: `Danger ${marker}` })
    const decide = urgent.getByRole('button', { name: /^Decide:/ })
    await decide.press('Enter')
    await dialog.getByRole('radio', { name: /^Blocked/ }).focus()
    await page.keyboard.press('Space')
    await fill(page, 'Note for the moderators', 'Asked for a PIN: blocked, police told.')
    await dialog.getByRole('button', { name: 'Save decision' }).press('Enter')
    await expect(page.getByRole('dialog', { name: 'Block this person’s account?' })).toBeFocused()
    await checkA11y('[role=dialog]')
    await page.getByRole('button', { name: 'Go back' }).press('Enter')
    await expect(dialog.getByRole('textbox', { name: 'Note for the moderators' })).toHaveValue('Asked for a PIN: blocked, police told.')
    await dialog.getByRole('button', { name: 'Save decision' }).press('Enter')
    await page.getByRole('button', { name: 'Yes, block the account' }).press('Enter')
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expectAnnounced(page, 'Concern dealt with: Blocked.')
    const blocked = await request.post('/api/v1/auth/login', { data: { email: vera.email, password: PASSWORD } })
    expect(blocked.status()).toBe(401)
    expect(await blocked.json()).toEqual({ error: 'account is blocked' })

    // Dealt with: both, with decision and note.
    await page.getByRole('navigation', { name: 'Which concerns' }).getByRole('link', { name: 'Dealt with' }).press('Enter')
    const done = page.getByRole('article').filter({ hasText: `Danger ${marker}` })
    await expect(done).toContainText('Blocked')
    await expect(done).toContainText('Asked for a PIN: blocked, police told.')
    await expect(done).toContainText('Dealt with on')
    await checkA11y()

    // The reporter: the outcome in words, in My concerns and in her notifications; never the note.
    await signIn(page, rosa)
    await page.goto('/concerns/mine')
    await expect(page.getByRole('article').filter({ hasText: `Danger ${marker}` })).toContainText('The moderators blocked the person’s account.')
    await expect(page.getByText('Asked for a PIN')).toHaveCount(0)
    await page.goto('/notifications')
    const told = page.getByRole('link', { name: 'The concern you raised has been dealt with. The moderators blocked the person’s account.' })
    await expect(told).toHaveAttribute('href', '/concerns/mine')
    // The moderator was told of the urgent one, and led to the queue.
    await signIn(page, mona)
    await page.goto('/notifications')
    await expect(page.getByRole('link', { name: 'Urgent: someone may be in danger. A new concern waits in the concerns queue' }).first()).toHaveAttribute('href', '/moderation/concerns')
  })

  test('German: the queue and the decision dialog pass axe; 320 px without horizontal scrolling', async ({ browser, request }) => {
    const marker = Date.now().toString(36)
    const { rosa, vera, id } = await requestWithOffer(request, `Warteschlange ${marker}`)
    await call(request, rosa, 'POST', '/concerns', { request_id: id, subject_user_id: vera.id, text: `Dringend ${marker}: Er wollte meine PIN wissen.`, urgent: true })
    const page = await germanPage(browser, await moderator(request), PASSWORD, 320)
    const scan = async (include?: string) => { await scanA11y(page, include) }
    await page.goto('/moderation/concerns')
    await expect(page.getByRole('heading', { level: 1, name: 'Hinweise' })).toBeVisible()
    const item = page.getByRole('article').filter({ hasText: marker })
    await expect(item.getByRole('heading', { level: 3 })).toContainText('Dringend: Jemand ist vielleicht in Gefahr.')
    await scan()
    await expectNoHorizontalScroll(page)
    await item.getByRole('button', { name: /^Entscheiden:/ }).press('Enter')
    await page.getByRole('dialog').getByRole('button', { name: 'Entscheidung speichern' }).press('Enter')
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText('Wählen Sie eine Entscheidung')
    await scan('[role=dialog]')
    await page.getByRole('dialog').getByRole('radio', { name: /^Gesperrt/ }).focus()
    await page.keyboard.press('Space')
    await fill(page, 'Notiz für die Moderation', 'Polizei informiert.')
    await page.getByRole('dialog').getByRole('button', { name: 'Entscheidung speichern' }).press('Enter')
    await expect(page.getByRole('dialog', { name: 'Das Konto dieser Person sperren?' })).toBeFocused()
    await scan('[role=dialog]')
    await page.getByRole('button', { name: 'Ja, Konto sperren' }).press('Enter')
    await expectAnnounced(page, 'Hinweis bearbeitet: Gesperrt.')
    await page.context().close()
  })
})
