// npm run sms:receive -- --from +4915112345678 --text "YES 4821": feeds a text, as if a person had sent it, to a
// service running without SMS_SMPP_URL (docs/api/messaging.md › Texts): a file in SMS_DIR/incoming/ it picks up.
import { join } from 'node:path'
import { configOrExit, fail } from '../src/cli.js'
import { writeIncomingText } from '../src/messaging/sms/file-gateway.js'

function argument (name: string): string | undefined {
  const index = process.argv.indexOf(name)
  return index === -1 ? undefined : process.argv[index + 1]
}

const config = configOrExit()
const from = argument('--from')
const text = argument('--text')
if (from === undefined || !/^\+?[0-9 ()/-]{3,30}$/.test(from)) fail('--from needs the sender\'s phone number, such as +4915112345678')
if (text === undefined || text.length === 0) fail('--text needs the text, such as "YES 4821"')
if (config.smsSmppUrl !== undefined) fail('SMS_SMPP_URL is set: replies come from the SMPP gateway, not from files')
await writeIncomingText(config.smsDir ?? join(config.dataDir, 'sms'), from, text)
process.stdout.write('text written: the service hands it over within a second\n')
