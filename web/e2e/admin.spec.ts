import { E2E_ADMIN } from './accounts.js'
import { expect, expectAnnounced, expectNoHorizontalScroll, scanA11y, test } from './fixtures.js'
import { followNav, giveRole, registerPerson, signIn } from './journeys.js'

test.describe('administration: find a user, give and take roles, block, unblock, verify', () => {
  test('every change by keyboard, each announced; a refused one is explained', async ({ page, request, checkA11y }) => {
    const marker = `Target${Date.now().toString(36)}`
    const bob = await registerPerson(request, 'Bob', marker)
    const name = `Bob ${marker}`
    await signIn(page, E2E_ADMIN, E2E_ADMIN.password)
    await followNav(page, 'Users', 'Find a user')
    await checkA11y()

    const query = page.getByRole('searchbox', { name: 'Name or email address' })
    await query.focus()
    await page.keyboard.type(marker.toLowerCase())
    await page.keyboard.press('Enter')
    await expectAnnounced(page, '1 user found')
    const card = page.getByRole('article', { name })
    await expect(card).toContainText(bob.email)
    await expect(card).toContainText('Active')
    await expect(card).toContainText('Not verified')
    const roles = card.getByRole('group', { name: `Roles of ${name}` })
    await expect(roles.getByRole('checkbox', { name: 'Volunteer' })).toBeChecked()
    await expect(roles.getByRole('checkbox', { name: 'Moderator' })).not.toBeChecked()
    await expect(roles.getByRole('checkbox', { name: 'Administrator' })).not.toBeChecked()
    await checkA11y()

    // Give and take a role with Space: each asks first in a dialog; focus goes back to the checkbox.
    const moderator = roles.getByRole('checkbox', { name: 'Moderator' })
    await moderator.focus()
    await page.keyboard.press('Space')
    const give = page.getByRole('dialog', { name: `Give ${name} the Moderator role?` })
    await expect(give).toBeVisible()
    await checkA11y()
    // "No, leave it" (Escape too) changes nothing.
    await page.keyboard.press('Escape')
    await expect(give).toHaveCount(0)
    await expect(moderator).not.toBeChecked()
    await expect(moderator).toBeFocused()
    const heldNow = async () => (await (await request.get('/api/v1/users/me/roles', { headers: { authorization: `Bearer ${bob.token}` } })).json()).map((role: { name: string }) => role.name)
    expect(await heldNow()).toEqual(['volunteer'])
    await page.keyboard.press('Space')
    await give.getByRole('button', { name: 'Yes, give the role' }).press('Enter')
    await expectAnnounced(page, `Moderator role given to ${name}.`)
    await expect(moderator).toBeChecked()
    await expect(moderator).toBeFocused()
    expect(await heldNow()).toEqual(['volunteer', 'moderator'])
    await page.keyboard.press('Space')
    await page.getByRole('dialog', { name: `Take the Moderator role from ${name}?` }).getByRole('button', { name: 'Yes, take the role' }).press('Enter')
    await expectAnnounced(page, `Moderator role taken from ${name}.`)
    await expect(moderator).not.toBeChecked()
    await expect(moderator).toBeFocused()

    // Block, unblock, verify.
    await card.getByRole('button', { name: `Block: ${name}` }).press('Enter')
    await expectAnnounced(page, `${name} is blocked.`)
    await expect(card).toContainText('Blocked')
    const login = await request.post('/api/v1/auth/login', { data: { email: bob.email, password: 'correct horse battery' } })
    expect(login.status()).toBe(401)
    await card.getByRole('button', { name: `Unblock: ${name}` }).press('Enter')
    await expectAnnounced(page, `${name} is unblocked.`)
    await expect(card).toContainText('Active')
    await card.getByRole('button', { name: `Mark identity verified: ${name}` }).press('Enter')
    await expectAnnounced(page, `The identity of ${name} is marked verified.`)
    await expect(card).toContainText('Verified')
    await expect(card.getByRole('button', { name: /Mark identity verified/ })).toHaveCount(0)
    // The pressed button is gone: focus is on the person's name, not lost to the page.
    await expect(card.getByRole('heading', { level: 3, name })).toBeFocused()
    // The check it recorded names who recorded it.
    await card.getByRole('link', { name: `Details and checks of ${name}` }).press('Enter')
    await expect(page.getByRole('article', { name: 'Identity' })).toContainText('Recorded by')
    await expect(page.getByRole('article', { name: 'Identity' }).getByRole('link', { name: 'Service Administrator' })).toBeVisible()
    await page.goBack()

    // The API refuses: an admin cannot block themselves. Said beside the person, and announced.
    await query.fill(E2E_ADMIN.email)
    await query.press('Enter')
    const self = page.getByRole('article', { name: 'Service Administrator' })
    await self.getByRole('button', { name: 'Block: Service Administrator' }).press('Enter')
    await expect(self).toContainText('You cannot block yourself.')
    await expectAnnounced(page, 'You cannot block yourself.')
    await checkA11y()

    await query.fill('no such person anywhere')
    await query.press('Enter')
    await expect(page.getByText('No user matches “no such person anywhere”.')).toBeVisible()
    await expectAnnounced(page, '0 users found')
  })

  test('navigation offers only what each person\'s roles allow; a page beyond them says so', async ({ page, request }) => {
    const volunteer = await registerPerson(request, 'Vic', 'Volunteer')
    const moderator = await registerPerson(request, 'Mona', 'Moderator')
    await giveRole(request, moderator, 2)
    const main = page.getByRole('navigation', { name: 'Main' })

    await signIn(page, volunteer)
    await expect(main.getByRole('link', { name: 'Find help nearby' })).toBeVisible()
    await expect(main.getByRole('link', { name: 'My offers' })).toBeVisible()
    await expect(main.getByRole('link', { name: 'Moderation' })).toHaveCount(0)
    await expect(main.getByRole('link', { name: 'Users' })).toHaveCount(0)
    for (const path of ['/moderation', '/admin/users']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: 'Not available to you' })).toBeVisible()
    }
    await page.getByRole('button', { name: 'Sign out' }).press('Enter')

    await signIn(page, moderator)
    await expect(main.getByRole('link', { name: 'Moderation' })).toBeVisible()
    await expect(main.getByRole('link', { name: 'Users' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Sign out' }).press('Enter')

    await signIn(page, E2E_ADMIN, E2E_ADMIN.password)
    await expect(main.getByRole('link', { name: 'Moderation' })).toBeVisible()
    await expect(main.getByRole('link', { name: 'Users' })).toBeVisible()
  })

  test('German: the administration page passes axe; 320 px and 200% zoom without horizontal scrolling', async ({ browser, request }) => {
    const marker = `Ziel${Date.now().toString(36)}`
    await registerPerson(request, 'Berta', marker)
    const context = await browser.newContext({ locale: 'de-DE' })
    const page = await context.newPage()
    const scan = async () => { await scanA11y(page) }
    await page.goto('/sign-in')
    await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill(E2E_ADMIN.email)
    await page.getByLabel('Passwort', { exact: true }).fill(E2E_ADMIN.password)
    await page.getByLabel('Passwort', { exact: true }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Hallo, Service' })).toBeFocused()
    await page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Benutzer' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Benutzer finden' })).toBeFocused()
    await scan()
    await page.getByRole('searchbox', { name: 'Name oder E-Mail-Adresse' }).fill(marker)
    await page.getByRole('searchbox', { name: 'Name oder E-Mail-Adresse' }).press('Enter')
    const card = page.getByRole('article', { name: `Berta ${marker}` })
    await expect(card.getByRole('group', { name: `Rollen von Berta ${marker}` })).toBeVisible()
    await expect(card.getByRole('checkbox', { name: 'Freiwillige Person' })).toBeChecked()
    await scan()
    for (const [width, height] of [[320, 640], [640, 400]] as const) {
      await page.setViewportSize({ width, height })
      await expectNoHorizontalScroll(page)
    }
    await context.close()
  })
})
