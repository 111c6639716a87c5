import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { it } from 'node:test'
import { NOTIFICATION_TYPES } from '../../src/events/notifications.js'
import { HISTORY_ACTIONS } from '../../src/on-behalf/history/history.schemas.js'

/** The app says every notification the service can send in words, in both languages (web/src/features/notifications/describe.ts). */
it('the web app has words for every notification type and alert-closed reason, in English and German', async () => {
  for (const language of ['en', 'de']) {
    const texts = JSON.parse(await readFile(new URL(`../../web/src/i18n/${language}.json`, import.meta.url), 'utf8'))
    const types = texts.notifications.types as Record<string, string>
    assert.deepEqual(NOTIFICATION_TYPES.filter((type) => typeof types[type] !== 'string'), [], `${language}: notification types without words`)
    // docs/api/messaging.md › Notifications: request_alert_closed's reason is assigned, cancelled or closed.
    assert.deepEqual(Object.keys(texts.notifications.reasons).sort(), ['assigned', 'cancelled', 'closed'], `${language}: alert-closed reasons`)
  }
})

/** A request's timeline names every step the service records in words (web/src/components/request-history.tsx), never its code. */
it('the web app has words for every action of a request\'s history, in English and German', async () => {
  for (const language of ['en', 'de']) {
    const texts = JSON.parse(await readFile(new URL(`../../web/src/i18n/${language}.json`, import.meta.url), 'utf8'))
    const actions = texts.history.actions as Record<string, string>
    assert.deepEqual(HISTORY_ACTIONS.filter((action) => typeof actions[action] !== 'string'), [], `${language}: history actions without words`)
  }
})
