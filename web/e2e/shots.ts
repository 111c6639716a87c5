import { fileURLToPath } from 'node:url'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, fill, PASSWORD } from './fixtures.js'
import { getAs, offer, type Person, postAs } from './journeys.js'

/** What the screenshot files (*.shots.ts, `npm run web:screenshots`) share: the sizes, where the pictures go, two steps. */
export const SIZES = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 800 }] as const
export const OUT = fileURLToPath(new URL('../../docs/screenshots', import.meta.url))

/** `volunteer` offers help with `id` and its requester accepts. */
export async function acceptOffer (request: APIRequestContext, volunteer: Person, requester: Person, id: number): Promise<void> {
  await offer(request, id, volunteer, 'I can help.')
  const offers = await getAs(request, `/requests/${id}/responses`, requester) as Array<{ id: number }>
  await postAs(request, `/requests/${id}/responses/${offers[0]!.id}/accept`, requester)
}

export async function signInAs (page: Page, email: string, first = 'Rosa'): Promise<void> {
  await page.goto('/sign-in')
  await fill(page, 'Email address', email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: `Hello, ${first}` })).toBeVisible()
}
