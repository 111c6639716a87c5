import type { Queryable } from '../../db/database.js'
import type { StreamSource } from '../../realtime/streams.js'
import { activeUsers, lastNotificationId, notificationsAfter, NOTIFY_CHANNEL } from './notifications.repo.js'
import { toNotification } from './notifications.service.js'

/**
 * What GET /events carries (docs/api/messaging.md › Live events): each notification as one event, `event:` its type and `data:`
 * the Notification as JSON. insertNotifications sends the NOTIFY that wakes the streams of its recipients.
 */
export function notificationStream (db: Queryable): StreamSource {
  return {
    channel: NOTIFY_CHANNEL,
    lastId: (userId) => lastNotificationId(db, userId),
    async eventsAfter (positions, limit) {
      const rows = await notificationsAfter(db, positions, limit)
      return rows.map((row) => {
        const notification = toNotification(row)
        return { i: row.i, id: notification.id, event: notification.type, data: JSON.stringify(notification) }
      })
    },
    activeUsers: (ids) => activeUsers(db, ids),
  }
}
