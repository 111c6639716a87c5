import { expect, test } from './fixtures.js'
import { giveRole, registerPerson, signIn } from './journeys.js'

/**
 * A role given while the person is signed in shows in the menu at the next page load: what the app kept for
 * reading offline (docs/web.md › Offline) is shown at once but asked for again, however recently it was kept.
 */
test('a new role shows in the menu on the first reload after it is given', async ({ page, request }) => {
  const person = await registerPerson(request, 'Mara')
  await signIn(page, person)
  const menu = page.getByRole('navigation', { name: 'Main' })
  await expect(menu.getByRole('link', { name: 'Your profile' })).toBeVisible()
  await expect(menu.getByRole('link', { name: 'Moderation' })).toHaveCount(0)
  await giveRole(request, person, 2)
  await page.reload()
  await expect(menu.getByRole('link', { name: 'Moderation' })).toBeVisible()
  await menu.getByRole('link', { name: 'Moderation' }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Requests waiting for a decision' })).toBeFocused()
})
