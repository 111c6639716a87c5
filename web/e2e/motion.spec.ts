import { expect, expectNoMotion, test } from './fixtures.js'
import { createRequest, followNav, north, registerPerson, signIn, uniquePoint } from './journeys.js'

test('with reduced motion nothing on the pages moves, the map and the on-duty switch included; without it the switch glides', async ({ page, request }) => {
  const home = uniquePoint()
  const requester = await registerPerson(request, 'Rosa', 'Still')
  await createRequest(request, requester, { ...north(home, 200), title: 'Post a parcel', urgency: 'medium' })
  const volunteer = await registerPerson(request, 'Moritz', 'Still', home)
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await signIn(page, volunteer)
  await expectNoMotion(page)

  await followNav(page, 'Find help nearby', 'Find people to help nearby')
  await page.getByRole('button', { name: 'Use my home location' }).press('Enter')
  await expect(page.getByRole('heading', { level: 3, name: 'Post a parcel' })).toBeVisible()
  await expectNoMotion(page)
  await page.getByRole('navigation', { name: 'Show the requests as' }).getByRole('link', { name: 'Map' }).press('Enter')
  await expect(page.getByRole('link', { name: 'Post a parcel (Medium, approximate place)' })).toBeVisible()
  await expectNoMotion(page)

  await followNav(page, 'Ask for help', 'What kind of help do you need?')
  await expectNoMotion(page)
  await page.goto('/ask/map')
  await expect(page.getByRole('application', { name: 'Map for choosing the place' })).toBeVisible()
  await expectNoMotion(page)

  await followNav(page, 'When I can help', 'When you can help')
  const onDuty = page.getByRole('switch', { name: /On duty/ })
  await onDuty.focus()
  await page.keyboard.press('Space')
  await expect(onDuty).toBeChecked()
  await expectNoMotion(page)

  // The same page for someone who has not asked for less motion: the switch's knob glides, so the check above can see motion.
  await page.emulateMedia({ reducedMotion: 'no-preference' })
  const knob = page.locator('.switch-thumb')
  await expect.poll(() => knob.evaluate((element) => getComputedStyle(element).transitionDuration)).toBe('0.15s')
})
