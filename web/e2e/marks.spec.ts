import type { Locator } from '@playwright/test'
import { E2E_ADMIN } from './accounts.js'
import { expect, expectAnnounced, test } from './fixtures.js'
import { followNav, registerPerson, signIn } from './journeys.js'

/** What a checkbox's or radio's mark looks like: its box, and the tick or dot drawn in it (`::after`). */
function look (mark: Locator) {
  return mark.evaluate((element) => {
    const box = getComputedStyle(element)
    const tick = getComputedStyle(element, '::after')
    return {
      box: [box.width, box.height, box.borderTopWidth, box.borderTopColor, box.backgroundColor],
      tick: [tick.content, tick.width, tick.height, tick.borderTopWidth, tick.borderRightWidth, tick.borderBottomWidth, tick.borderLeftWidth, tick.borderRightColor, tick.transform],
    }
  })
}

/**
 * Finding: ticked checkboxes on the on-duty page looked unlike the admin's, and both showed their state by a fill,
 * which forced colours (Windows' contrast themes) drop. Every checkbox is now ticked alike, and the tick, the
 * radio's dot and the switch's thumb are borders, which forced colours keep (docs/web.md › Checkboxes and radios).
 */
test('a ticked checkbox looks the same on every page, and the tick and the chosen radio and the switch thumb stay visible in forced colours', async ({ page, request, checkA11y }) => {
  const marker = `Marks${Date.now().toString(36)}`
  await registerPerson(request, 'Mia', marker)
  await signIn(page, E2E_ADMIN, E2E_ADMIN.password)

  // The admin's roles: Volunteer is ticked for everyone.
  await followNav(page, 'Users', 'Find a user')
  const query = page.getByRole('searchbox', { name: 'Name or email address' })
  await query.focus()
  await page.keyboard.type(marker.toLowerCase())
  await page.keyboard.press('Enter')
  await expectAnnounced(page, '1 user found')
  const card = page.getByRole('article', { name: `Mia ${marker}` })
  await expect(card.getByRole('checkbox', { name: 'Volunteer' })).toBeChecked()
  const roleTicked = await look(card.locator('.checkbox[data-selected] .box'))

  // The kinds of help where she goes on duty: one ticked by keyboard, one not.
  await page.goto('/availability')
  const kinds = page.getByRole('group', { name: 'Kinds of help you offer' })
  await expect(kinds.getByRole('checkbox').nth(1)).toBeVisible()
  for (const box of await kinds.getByRole('checkbox').all()) {
    if (await box.isChecked()) {
      await box.focus()
      await page.keyboard.press('Space')
      await expect(box).not.toBeChecked()
    }
  }
  await kinds.getByRole('checkbox').first().focus()
  await page.keyboard.press('Space')
  await expect(kinds.getByRole('checkbox').first()).toBeChecked()
  await checkA11y()
  const ticked = kinds.locator('.radio[data-selected] .checkbox-mark').first()
  const unticked = kinds.locator('.radio:not([data-selected]) .checkbox-mark').first()
  const chosenRadio = page.locator('.radio[data-selected] .radio-mark').first()

  const kindTicked = await look(ticked)
  expect(kindTicked).toEqual(roleTicked)
  expect(kindTicked.tick.slice(0, 1).concat(kindTicked.tick.slice(4, 6))).toEqual(['""', '3px', '3px'])
  // Ticked or not, the box is the same white box: the state is the tick alone.
  const plain = await look(unticked)
  expect(plain.box).toEqual(kindTicked.box)
  expect(plain.tick[0]).toBe('none')

  // Forced colours: the tick and the dot are still drawn, in a system colour, and nothing relies on a fill.
  await page.emulateMedia({ forcedColors: 'active' })
  const forced = await look(ticked)
  expect(forced.tick.slice(4, 6)).toEqual(['3px', '3px'])
  expect(forced.tick[7]).not.toBe('rgba(0, 0, 0, 0)')
  expect(forced.box[4]).toEqual((await look(unticked)).box[4])
  const dot = await look(chosenRadio)
  expect(dot.tick[0]).toBe('""')
  expect(dot.tick.slice(3, 7)).toEqual(['6px', '6px', '6px', '6px'])
  expect(dot.tick[7]).not.toBe('rgba(0, 0, 0, 0)')
  // The on-duty switch's thumb too: a round border, on the left when off.
  const thumb = await page.locator('.switch-thumb').evaluate((element) => { const style = getComputedStyle(element); return [style.borderTopWidth, style.borderTopColor, style.left] })
  expect(thumb.slice(0, 1)).toEqual(['9px'])
  expect(thumb[1]).not.toBe('rgba(0, 0, 0, 0)')
})
