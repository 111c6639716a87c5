import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { it } from 'node:test'
import { DEFAULT_SMS_TYPES, SMS_TYPES } from '../../src/messaging/sms/sms-texts.js'
import { TEXT_TYPES } from '../../web/src/features/settings/types.js'

const ROOT = new URL('../../', import.meta.url).pathname

/** docs/web/messaging.md: the settings page offers by text exactly the types the service texts, each named in both languages. */
it('the notification settings offer every type that can go by text, and only those, each with a label in English and German', () => {
  assert.deepEqual([...TEXT_TYPES].sort(), [...SMS_TYPES].sort())
  for (const type of DEFAULT_SMS_TYPES) assert.ok((TEXT_TYPES as readonly string[]).includes(type), type)
  for (const language of ['en', 'de']) {
    const labels = JSON.parse(readFileSync(`${ROOT}web/src/i18n/${language}.json`, 'utf8')).settings.types as Record<string, unknown>
    assert.deepEqual(TEXT_TYPES.filter((type) => typeof labels[type] !== 'string'), [], `${language}: types without a label`)
  }
})
