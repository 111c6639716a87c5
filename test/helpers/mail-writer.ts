// A child process for tests of MAIL_DIR: writes one e-mail (delivery 7, try 1) with the file channel when a
// line arrives on stdin, prints the outcome as JSON and exits. The parent may first lower its limits (prlimit).
import { emailChannel } from '../../src/messaging/deliveries/email-channel.js'
import { unsubscribeTokens } from '../../src/lib/unsubscribe.js'
import { MAIL_WRITER_DELIVERY } from './mail-files.js'

const channel = emailChannel({
  smtpUrl: undefined, mailDir: process.argv[2]!, from: 'x <x@localhost>', links: { publicUrl: 'https://help.example.org', unsubscribe: unsubscribeTokens('mail-writer-secret-that-is-long-enough') }, log: { info () {} },
})
process.stdout.write('ready\n')
process.stdin.once('data', () => {
  channel.send(MAIL_WRITER_DELIVERY).then((outcome) => {
    process.stdout.write(`${JSON.stringify(outcome)}\n`)
    process.exit(0)
  }, () => process.exit(1))
})
