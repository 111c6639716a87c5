import { expect, expectNoHorizontalScroll, expectSaid, fill, PASSWORD, register, scanA11y, test, uniqueEmail } from './fixtures.js'

test.describe('accounts', () => {
  test('register: empty form shows a focused error summary whose links lead to the fields; then the account is created', async ({ page, gotoPage, checkA11y }) => {
    await gotoPage('/register', 'Create an account')
    await page.getByRole('button', { name: 'Create account' }).press('Enter')
    const summary = page.getByRole('alert')
    await expect(summary).toContainText('There is a problem')
    await expect(page.locator('.error-summary')).toBeFocused()
    await expect(page).toHaveTitle(/^Error: Create an account/)
    for (const message of ['Enter your first name', 'Enter your last name', 'Enter your email address', 'Enter your password']) {
      await expect(summary.getByRole('link', { name: message })).toBeVisible()
    }
    // The same words beside the field, in its description.
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription(/Enter your first name/)
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveAttribute('aria-invalid', 'true')
    await checkA11y()
    await summary.getByRole('link', { name: 'Enter your last name' }).press('Enter')
    await expect(page.getByRole('textbox', { name: 'Last name' })).toBeFocused()

    await fill(page, 'First name', 'Ada')
    await fill(page, 'Last name', 'Lovelace')
    await fill(page, 'Email address', uniqueEmail('ada'))
    await page.getByLabel('Password', { exact: true }).fill('short')
    await fill(page, 'Phone number (optional)', 'call me')
    await page.getByRole('button', { name: 'Create account' }).press('Enter')
    await expect(summary.getByRole('link', { name: 'Password must be at least 8 characters' })).toBeVisible()
    await expect(summary.getByRole('link', { name: /Enter a phone number, like 0151 12345678/ })).toBeVisible()
    // As people say it: a national number of the deployment's country (SMS_DEFAULT_COUNTRY, Germany here) is sent in E.164.
    await fill(page, 'Phone number (optional)', '0151 / 1234 5678')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Ada' })).toBeFocused()
    // Said together when the start page comes within a moment, one after the other when it takes longer.
    await expectSaid(page, 'Your account is ready. Welcome, Ada.')
    await expectSaid(page, 'Hello, Ada – Neighbourly help')
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
    await page.getByRole('link', { name: 'Your profile' }).first().press('Enter')
    await expect(page.getByRole('textbox', { name: 'Phone number (optional)' })).toHaveValue('+4915112345678')
  })

  test('an e-mail already registered: the API error is shown next to the e-mail field', async ({ page }) => {
    const email = uniqueEmail('twice')
    await register(page, email)
    await page.getByRole('button', { name: 'Sign out' }).press('Enter')
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible()
    await page.goto('/register')
    await fill(page, 'First name', 'Ada')
    await fill(page, 'Last name', 'Lovelace')
    await fill(page, 'Email address', email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).press('Enter')
    const message = 'An account with this email address already exists: sign in instead'
    await expect(page.getByRole('alert').getByRole('link', { name: message })).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveAccessibleDescription(message)
  })

  test('stays signed in across reloads with no token in page script\'s reach; signs out', async ({ page, context }) => {
    const email = uniqueEmail('reload')
    await register(page, email)
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Ada' })).toBeVisible()
    await expect(page.getByText('Signed in as Ada Lovelace')).toBeVisible()
    // The refresh token is an httpOnly cookie: invisible to script, and nothing is kept in storage.
    expect(await page.evaluate(() => document.cookie)).toBe('')
    // Only the language and what the person last saw (for reading it offline, docs/web.md › Offline reading), never a token.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key !== 'language' && key !== 'vcs-last-seen'))).toEqual([])
    expect(await page.evaluate(() => localStorage.getItem('vcs-last-seen') ?? '')).not.toMatch(/token|eyJ/i)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    const cookies = await context.cookies()
    expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite, cookie.path])).toEqual([['vcs_refresh', true, 'Strict', '/api/v1/session']])

    await page.getByRole('button', { name: 'Sign out' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Neighbourly help' })).toBeFocused()
    await expectSaid(page, 'You are signed out.')
    // The start page's title names the service once, and it is said.
    await expect(page).toHaveTitle('Neighbourly help')
    await expectSaid(page, 'Neighbourly help')
    // Signing out is shown too, on the start page (a success banner).
    await expect(page.getByRole('region', { name: 'Success' })).toContainText('You are signed out.')
    await page.reload()
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible()
    expect(await context.cookies()).toEqual([])
    // What was kept for reading offline goes with the session.
    expect(await page.evaluate(() => localStorage.getItem('vcs-last-seen'))).toBeNull()
  })

  test('sign in: wrong password is shown at the e-mail field; a signed-out visit to the profile comes back to it after signing in', async ({ page, gotoPage, checkA11y }) => {
    const email = uniqueEmail('signin')
    await register(page, email)
    await page.getByRole('button', { name: 'Sign out' }).press('Enter')
    await page.goto('/profile')
    // Focused, not only shown: sent on to sign in, the app moves focus to its h1 a frame after it appears, and
    // typing begun in between would land on the heading.
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeFocused()
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fprofile$/)
    await fill(page, 'Email address', email)
    await page.getByLabel('Password', { exact: true }).fill('wrong password')
    await page.getByRole('button', { name: 'Sign in' }).press('Enter')
    await expect(page.locator('.error-summary')).toBeFocused()
    await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveAccessibleDescription('The email address or password is not right')
    await checkA11y()
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Password', { exact: true }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeFocused()
    await gotoPage('/sign-in', 'Sign in')
  })

  test('profile: edit details, set the home location by typing or from the device, see own roles', async ({ page, context, checkA11y }) => {
    await register(page, uniqueEmail('profile'))
    await page.getByRole('link', { name: 'Your profile' }).first().press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeFocused()
    await expect(page.getByRole('heading', { level: 2, name: 'Your roles' })).toBeVisible()
    await expect(page.getByRole('list').filter({ hasText: 'Volunteer' })).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Ada')
    await checkA11y()

    await fill(page, 'First name', 'Augusta Ada')
    await fill(page, 'Town or city (optional)', 'London')
    await fill(page, 'Phone number (optional)', 'not a phone')
    await page.getByRole('button', { name: 'Save details' }).press('Enter')
    await expect(page.getByRole('alert').getByRole('link', { name: /Enter a phone number/ })).toBeVisible()
    await checkA11y()
    // A London number with its code, as people write it, is kept as the international number it is.
    await fill(page, 'Phone number (optional)', '+44 20 7946 0958')
    await page.getByRole('button', { name: 'Save details' }).press('Enter')
    await expect(page.getByRole('status')).toHaveText('Your details are saved.')
    await expect(page.getByText('Signed in as Augusta Ada Lovelace')).toBeVisible()
    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Town or city (optional)' })).toHaveValue('London')
    await expect(page.getByRole('textbox', { name: 'Phone number (optional)' })).toHaveValue('+442079460958')

    await fill(page, 'Latitude', '100')
    await fill(page, 'Longitude', '13.405')
    await page.getByRole('button', { name: 'Save home location' }).press('Enter')
    await expect(page.getByRole('alert').getByRole('link', { name: 'Enter a latitude from -90 to 90' })).toBeVisible()
    await fill(page, 'Latitude', '52,52')
    await page.getByRole('button', { name: 'Save home location' }).press('Enter')
    await expect(page.getByRole('status')).toHaveText('Your home location is saved.')

    await context.grantPermissions(['geolocation'])
    await context.setGeolocation({ latitude: 48.1374, longitude: 11.5755 })
    await page.getByRole('button', { name: 'Use my current location' }).press('Space')
    await expect(page.getByRole('textbox', { name: 'Latitude' })).toHaveValue('48.1374')
    await expect(page.getByRole('textbox', { name: 'Longitude' })).toHaveValue('11.5755')
    await expect(page.getByRole('status')).toHaveText('Location found: latitude 48.1374, longitude 11.5755.')
    await page.getByRole('button', { name: 'Save home location' }).press('Enter')
    await expect(page.getByRole('status')).toHaveText('Your home location is saved.')
  })

  test('German: every account page passes axe, with and without errors', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'de-DE' })
    const page = await context.newPage()
    const scan = async () => { await scanA11y(page) }
    await page.goto('/register')
    await expect(page.getByRole('heading', { level: 1, name: 'Konto erstellen' })).toBeVisible()
    await scan()
    await page.getByRole('button', { name: 'Konto erstellen' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('Es gibt ein Problem')
    await expect(page).toHaveTitle(/^Fehler: Konto erstellen/)
    await scan()
    await page.goto('/sign-in')
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible()
    await scan()
    await context.close()
  })

  test('account pages at 320 px: no horizontal scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 })
    await register(page, uniqueEmail('narrow'))
    for (const [path, heading] of [['/profile', 'Your profile'], ['/register', 'Create an account'], ['/sign-in', 'Sign in']] as const) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expectNoHorizontalScroll(page)
    }
  })
})
