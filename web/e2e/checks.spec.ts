import { E2E_ADMIN } from './accounts.js'
import { expect, expectAnnounced, expectNoHorizontalScroll, fill, scanA11y, test } from './fixtures.js'
import { approve, choose, createRequest, followNav, germanPage, giveRole, registerPerson, signIn, uniquePoint, type Person } from './journeys.js'

/** docs/api/accounts.md › Checks that vet volunteers and docs/web/help.md › Safeguarding: moderators and admins record and revoke checks on a person's page. */

/** A day `days` from today, as the date field takes it (YYYY-MM-DD, the browser's own day). */
function dayFromToday (days: number): string {
  const day = new Date()
  day.setDate(day.getDate() + days)
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`
}

test.describe('checks on a person’s page', () => {
  test('a moderator, from the concerns queue: record a check by keyboard, its errors, then revoke it after a confirmation', async ({ page, request, checkA11y }) => {
    const rosa = await registerPerson(request, 'Rosa', 'Requester')
    const vera: Person = await registerPerson(request, 'Vera', `Checked${Date.now().toString(36)}`)
    const id = await createRequest(request, rosa, { ...uniquePoint(), title: 'Checks from the queue' })
    await approve(request, id)
    const raised = await request.post('/api/v1/concerns', { headers: { authorization: `Bearer ${rosa.token}` }, data: { subject_user_id: vera.id, request_id: id, text: `Is ${vera.last} really from the charity?` } })
    expect(raised.status()).toBe(201)
    const mona = await registerPerson(request, 'Mona', 'Moderator')
    await giveRole(request, mona, 2)
    await signIn(page, mona)
    await followNav(page, 'Moderation', 'Requests waiting for a decision')
    await page.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Concerns' }).press('Enter')
    const name = `Vera ${vera.last}`
    await page.getByRole('article').filter({ hasText: `Is ${vera.last} really` }).getByRole('link', { name }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name })).toBeFocused()
    await expect(page.getByText(`No checks are recorded for ${name}.`)).toBeVisible()
    await checkA11y()

    // Nothing chosen, and a day already past: both said, beside their fields and in the summary.
    const until = page.getByLabel('Valid until (optional)')
    await until.fill(dayFromToday(-1))
    await page.getByRole('button', { name: 'Record check' }).press('Enter')
    const summary = page.getByRole('alert')
    await expect(summary).toContainText('Select the kind of check')
    await expect(summary).toContainText('Enter a date that is today or later, or leave it empty')
    await expect(until).toHaveAccessibleDescription(/Enter a date that is today or later/)
    await checkA11y()
    await choose(page, 'Identity')
    await fill(page, 'Note (optional)', 'Passport seen by Mona at the office.')
    await until.fill(dayFromToday(400))
    await page.getByRole('button', { name: 'Record check' }).press('Enter')
    await expectAnnounced(page, `Recorded: Identity for ${name}.`)
    await expect(page.getByRole('heading', { level: 2, name: 'Checks' })).toBeFocused()
    const check = page.getByRole('article', { name: 'Identity' })
    await expect(check).toContainText('Valid until')
    await expect(check).toContainText('Passport seen by Mona at the office.')
    // Who recorded it, by name, linking to their page.
    await expect(check.getByRole('link', { name: 'Mona Moderator' })).toHaveAttribute('href', `/people/${mona.id}`)
    await expect(page.getByRole('definition').filter({ hasText: /^Verified$/ })).toHaveCount(1)
    await checkA11y()

    // Revoking asks first; Escape keeps the check and gives focus back.
    const revoke = check.getByRole('button', { name: 'Revoke: Identity' })
    await revoke.press('Enter')
    const dialog = page.getByRole('dialog', { name: `Revoke the check “Identity” of ${name}?` })
    await expect(dialog).toBeVisible()
    await checkA11y('[role=dialog]')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(revoke).toBeFocused()
    await revoke.press('Enter')
    await dialog.getByRole('button', { name: 'Revoke check' }).press('Enter')
    await expectAnnounced(page, `Revoked: Identity for ${name}.`)
    await expect(check).toContainText('Revoked on')
    await expect(check.getByRole('button', { name: 'Revoke: Identity' })).toHaveCount(0)
    await expect(page.getByRole('definition').filter({ hasText: /^Not verified$/ })).toHaveCount(1)

    // As the API holds it: recorded by Mona, revoked, kept.
    const held = await request.get(`/api/v1/admin/users/${vera.id}/checks`, { headers: { authorization: `Bearer ${mona.token}` } })
    expect((await held.json())[0]).toMatchObject({ kind: 'identity', verified_by: mona.id, note: 'Passport seen by Mona at the office.', valid_until: dayFromToday(400) })
  })

  test('German, an admin from the users’ search, at 320 px: a check without expiry; axe on the page and the dialog', async ({ browser, request }) => {
    const vera = await registerPerson(request, 'Vera', `Geprüft${Date.now().toString(36)}`)
    const page = await germanPage(browser, E2E_ADMIN, E2E_ADMIN.password, 320)
    const name = `Vera ${vera.last}`
    await page.goto(`/admin/users?q=${encodeURIComponent(vera.last)}`)
    await page.getByRole('link', { name: `Angaben und Prüfungen von ${name}` }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name })).toBeFocused()
    await scanA11y(page)
    await expectNoHorizontalScroll(page)
    await choose(page, 'Führungszeugnis')
    await page.getByRole('button', { name: 'Prüfung eintragen' }).press('Enter')
    await expectAnnounced(page, `Eingetragen: Führungszeugnis für ${name}.`)
    const check = page.getByRole('article', { name: 'Führungszeugnis' })
    await expect(check).toContainText('Gültig, läuft nicht ab')
    await expect(page.getByRole('definition').filter({ hasText: /^Führungszeugnis$/ })).toHaveCount(1)
    await scanA11y(page)
    await expectNoHorizontalScroll(page)
    await check.getByRole('button', { name: 'Widerrufen: Führungszeugnis' }).press('Enter')
    await expect(page.getByRole('dialog', { name: `Die Prüfung „Führungszeugnis“ von ${name} widerrufen?` })).toBeVisible()
    await scanA11y(page, '[role=dialog]')
    await page.getByRole('button', { name: 'Prüfung widerrufen' }).press('Enter')
    await expect(check).toContainText('Widerrufen am')
    await page.context().close()
  })
})
