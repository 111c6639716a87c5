import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/accounts.js'

describeMatrix('accounts', ROWS)
