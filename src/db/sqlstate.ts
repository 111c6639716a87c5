/** SQLSTATE codes the services translate into answers (PostgreSQL Appendix A). */
export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'
export const CHECK_VIOLATION = '23514'
