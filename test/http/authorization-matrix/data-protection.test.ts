import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/data-protection.js'

describeMatrix('data-protection', ROWS)
