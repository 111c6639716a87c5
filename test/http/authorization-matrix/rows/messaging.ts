import assert from 'node:assert/strict'
import { type Row, PUSH_IDENTITY, coordinatorsOnly, everyone, signedIn } from '../rows.js'

/** Messaging: notification settings, deliveries, push subscriptions, notifications, the event stream and the texts inbox. */
export const ROWS: readonly Row[] = [
  // docs/api/messaging.md preferences and deliveries: each caller's own; one-click unsubscribe needs no sign-in, only its
  // signed token (the journeys: test/http/deliveries-*.test.ts).
  { op: 'GET /users/me/notification-settings', state: 'assigned', path: () => '/users/me/notification-settings', expect: signedIn(200), see: (res) => assert.deepEqual(Object.keys(res.body).sort(), ['email', 'push', 'quiet_hours', 'sms', 'time_zone']) },
  { op: 'PUT /users/me/notification-settings', state: 'assigned', path: () => '/users/me/notification-settings', body: () => ({ quiet_hours: null }), expect: signedIn(200) },
  { op: 'GET /users/me/deliveries', state: 'assigned', path: () => '/users/me/deliveries', expect: signedIn(200) },
  { op: 'POST /unsubscribe', state: 'open', path: () => '/unsubscribe?token=1.request_approved.forged', expect: everyone([400, 'invalid token']) },
  // docs/api/messaging.md Push subscriptions (push on: the matrix's app has a VAPID identity); the rest: test/http/push.test.ts.
  { op: 'GET /push/public-key', state: 'open', path: () => '/push/public-key', expect: everyone(200), see: (res) => assert.deepEqual(res.body, { public_key: PUSH_IDENTITY.publicKey }) },
  { op: 'POST /users/me/push-subscriptions', state: 'assigned', path: () => '/users/me/push-subscriptions', body: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/matrix', keys: { p256dh: 'x', auth: 'y' } }), expect: signedIn([400, 'invalid push keys']) },
  { op: 'GET /users/me/push-subscriptions', state: 'assigned', path: () => '/users/me/push-subscriptions', expect: signedIn(200), see: (res) => assert.deepEqual(res.body, []) },
  { op: 'DELETE /users/me/push-subscriptions/{id}', state: 'assigned', path: () => '/users/me/push-subscriptions/1', expect: signedIn([404, 'subscription not found']) },
  {
    op: 'GET /notifications',
    state: 'assigned',
    path: () => '/notifications',
    expect: signedIn(200),
    // Each sees only their own: the requester was told of the approval and of the responses, nobody else of those.
    see: (res, { actor }) => assert.equal(res.body.some((n: { type: string }) => n.type === 'request_approved' || n.type === 'response_received'), actor === 'requester'),
  },
  { op: 'GET /notifications/unread-count', state: 'assigned', path: () => '/notifications/unread-count', expect: signedIn(200) },
  { op: 'POST /notifications/read', state: 'assigned', path: () => '/notifications/read', body: () => ({ up_to_id: 0 }), expect: signedIn(200) },
  { op: 'GET /events', state: 'assigned', path: () => '/events', expect: signedIn(200), stream: true },
  // docs/api/messaging.md › Texts › The inbox: coordinators (the clients' texts), moderators and admins (every text); who sees which, and
  // marking one dealt with: test/http/sms-inbox.test.ts.
  { op: 'GET /sms/inbox', state: 'assigned', path: () => '/sms/inbox', expect: coordinatorsOnly(200, true) },
  { op: 'POST /sms/inbox/{id}/handled', state: 'assigned', path: () => '/sms/inbox/999999999/handled', expect: coordinatorsOnly([404, 'text not found'], true) },
]
