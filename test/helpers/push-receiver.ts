// The receiver lives in scripts/lib so that the deliveries bench and the tests use the same one.
export { PushReceiver, type BrowserSubscription, type ReceivedPush } from '../../scripts/lib/push-receiver.js'
