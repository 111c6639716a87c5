import type { APIRequestContext } from '@playwright/test'
import { E2E_ADMIN } from './accounts.js'
import { registerPerson } from './api.js'
import { expect, expectAnnounced, expectNoHorizontalScroll, fill, test, uniqueEmail } from './fixtures.js'

async function roleNames (request: APIRequestContext, email: string): Promise<string[]> {
  const login = await request.post('/api/v1/auth/login', { data: { email, password: 'correct horse battery' } })
  const token = (await login.json() as { access_token: string }).access_token
  const roles = await request.get('/api/v1/users/me/roles', { headers: { authorization: `Bearer ${token}` } })
  return (await roles.json() as Array<{ name: string }>).map((role) => role.name)
}

test('admin: find a user by number, give and take a role, block, unblock, verify', async ({ page, request, checkA11y }) => {
  const email = uniqueEmail('person')
  const person = await registerPerson(request, email, 'Paula', 'Person')

  await page.goto('/sign-in')
  await fill(page, 'Email address', E2E_ADMIN.email)
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password)
  await page.getByRole('button', { name: 'Sign in' }).press('Enter')
  const admin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' })
  await admin.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeFocused()

  await fill(page, 'User number', 'twelve')
  await page.getByRole('button', { name: 'Show user' }).press('Enter')
  await expect(page.getByRole('alert').getByRole('link', { name: 'Enter a user number, like 12' })).toBeVisible()
  await fill(page, 'User number', '999999')
  await page.getByRole('button', { name: 'Show user' }).press('Enter')
  await expect(page.getByText('There is no user with number 999999.')).toBeVisible()

  await fill(page, 'User number', String(person.id))
  await page.getByRole('button', { name: 'Show user' }).press('Enter')
  const card = page.getByRole('region', { name: `Paula Person (number ${person.id})` })
  await expect(card).toContainText('AccountActive')
  await expect(card).toContainText('IdentityNot verified')
  await checkA11y()

  await card.getByRole('button', { name: 'Give this role' }).press('Enter')
  await expect(card.getByRole('alert')).toHaveText('Choose a role first')
  await card.getByRole('radio', { name: 'Moderator' }).focus()
  await page.keyboard.press('Space')
  await card.getByRole('button', { name: 'Give this role' }).press('Enter')
  await expectAnnounced(page, 'Role given: Moderator.')
  expect((await roleNames(request, email)).sort()).toEqual(['moderator', 'volunteer'])
  await card.getByRole('button', { name: 'Take this role away' }).press('Enter')
  await expectAnnounced(page, 'Role taken away: Moderator.')
  expect(await roleNames(request, email)).toEqual(['volunteer'])

  await card.getByRole('button', { name: 'Mark identity as verified' }).press('Enter')
  await expect(card).toContainText('IdentityVerified')
  await card.getByRole('button', { name: 'Block this account' }).press('Enter')
  await expectAnnounced(page, 'The account is blocked.')
  await expect(card).toContainText('AccountBlocked')
  const refused = await request.post('/api/v1/auth/login', { data: { email, password: 'correct horse battery' } })
  expect(refused.status()).toBe(401)
  await checkA11y()
  await card.getByRole('button', { name: 'Unblock this account' }).press('Enter')
  await expectAnnounced(page, 'The account is unblocked.')
  await expect(card).toContainText('AccountActive')
  expect((await request.post('/api/v1/auth/login', { data: { email, password: 'correct horse battery' } })).status()).toBe(200)

  // The same page in German, switched by keyboard, at 320 px.
  await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
  await page.setViewportSize({ width: 320, height: 700 })
  await expect(page.getByRole('heading', { level: 1, name: 'Verwaltung' })).toBeVisible()
  await expect(page.getByRole('region', { name: `Paula Person (Nummer ${person.id})` })).toContainText('KontoAktiv')
  await checkA11y()
  await expectNoHorizontalScroll(page)
})
