// The bench's Web Push service (the deliveries scenario): the tests' real receiver (scripts/lib/push-receiver.ts:
// VAPID checked, each payload decrypted with the device's keys) on a fixed port, with its certificate kept in a
// directory so that the service, started first, trusts it: NODE_EXTRA_CA_CERTS=<dir>/cert.pem PUSH_ENDPOINT_HOSTS=localhost.
import { json } from '../lib/http.js'
import { PushReceiver } from '../lib/push-receiver.js'

export interface PushSink {
  /** Resolves once a push about each of the requests has arrived, or after `timeoutMs`: when each came, by request id. */
  waitFor (ids: ReadonlySet<number>, timeoutMs: number): Promise<Map<number, number>>
  /** Makes the account's only device one of this receiver's, through the API as the app does. */
  subscribe (base: string, token: string): Promise<void>
  close (): Promise<void>
}

export async function startPushSink (base: string, port: number, tlsDir: string): Promise<PushSink> {
  const key = await json(base, 'GET', '/push/public-key')
  if (key.status !== 200) {
    throw new Error('the service has no push (GET /push/public-key answered ' + key.status + '): start it with VAPID_* (or on the embedded engine), or pass --email-only')
  }
  const receiver = await PushReceiver.start(key.body.public_key as string, { port, tlsDir })
  const firstAt = new Map<number, number>()
  let seen = 0
  const update = () => {
    for (; seen < receiver.messages.length; seen++) {
      const { payload, at } = receiver.messages[seen]!
      const id = payload.request_id as number | null
      if (id !== null && !firstAt.has(id)) firstAt.set(id, at)
    }
  }
  return {
    async waitFor (ids, timeoutMs) {
      const deadline = Date.now() + timeoutMs
      for (update(); ![...ids].every((id) => firstAt.has(id)) && Date.now() < deadline; update()) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      return new Map([...ids].flatMap((id) => (firstAt.has(id) ? [[id, firstAt.get(id)!] as [number, number]] : [])))
    },
    async subscribe (base, token) {
      // Devices of earlier runs point at endpoints this receiver does not know; each would be a failing push.
      const old = await json(base, 'GET', '/users/me/push-subscriptions', undefined, token)
      for (const device of old.body as Array<{ id: number }>) await json(base, 'DELETE', `/users/me/push-subscriptions/${device.id}`, undefined, token)
      const res = await json(base, 'POST', '/users/me/push-subscriptions', receiver.subscribe(), token)
      if (res.status !== 201) throw new Error(`subscribing to push answered ${res.status} ${JSON.stringify(res.body)}: is PUSH_ENDPOINT_HOSTS=localhost set?`)
    },
    close: async () => await receiver.close(),
  }
}
