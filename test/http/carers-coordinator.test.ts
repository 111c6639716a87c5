import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_INPUT } from '../helpers/lifecycle.js'

// docs/api/on-behalf.md › Carers: a carer follows the person's own requests. When the person is also a
// coordinator, the requests she asked for her clients are the clients', and her carer sees none of them.
for (const engine of engines()) {
  describe(`a coordinator's carer and her clients' requests (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('lists and opens only the coordinator\'s own requests, never her clients\'', async () => {
      const coordinator: Account = await t.registerWithRole('coordinator')
      const carer = await t.register({ first_name: 'Carla', last_name: 'Carer' })
      const invited = await t.post('/users/me/trusted-people', { email: carer.email, can: ['follow'] }, coordinator.token)
      assertStatus(invited, 201)
      assertStatus(await t.post(`/users/me/acting-for/${invited.body.id}/accept`, undefined, carer.token), 200)

      const own = await t.post('/requests', { ...REQUEST_INPUT, title: 'My own shopping' }, coordinator.token)
      assertStatus(own, 201)
      const client = await t.post('/clients', { first_name: 'Erna', last_name: 'Schmidt', phone: '+4917012345678', latitude: 52.4, longitude: 13.3, consent: { how: 'phone' } }, coordinator.token)
      assertStatus(client, 201)
      const forClient = await t.post('/requests', { ...REQUEST_INPUT, title: 'Erna\'s lift', on_behalf_of: { client_id: client.body.id } }, coordinator.token)
      assertStatus(forClient, 201)

      // The coordinator's own list still holds both; her carer's holds her own only.
      const mine = await t.get('/requests/my', coordinator.token)
      assert.deepEqual(mine.body.map((item: { id: number }) => item.id).sort(), [own.body.id, forClient.body.id].sort())
      const followed = await t.get(`/requests/my?for_user_id=${coordinator.id}`, carer.token)
      assertStatus(followed, 200)
      assert.deepEqual(followed.body.map((item: { id: number }) => item.id), [own.body.id])

      // Opened by id, the client's request reads as to any stranger: no client, no contact; to the coordinator, with them.
      const strangers = await t.get(`/requests/${forClient.body.id}`, carer.token)
      assertStatus(strangers, 200)
      assert.deepEqual([strangers.body.client, strangers.body.contact_phone], [null, null])
      const coordinators = await t.get(`/requests/${forClient.body.id}`, coordinator.token)
      assert.deepEqual([coordinators.body.client?.first_name, coordinators.body.contact_phone], ['Erna', '+4917012345678'])
    })
  })
}
