import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/messaging.js'

describeMatrix('messaging', ROWS)
