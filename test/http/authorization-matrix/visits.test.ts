import { describeMatrix } from './matrix.js'
import { ROWS, VISIT_CHECKS_ON } from './rows/visits.js'

describeMatrix('visits', ROWS, VISIT_CHECKS_ON)
