/**
 * The one account the development seed serves (`npm run seed`): the seed makes it, adds projects
 * to it and, when asked, resets its password; never another account's, whoever holds the
 * bridge's secret.
 */
export const DEVELOPMENT_ACCOUNT_EMAIL = "dev@keyproof.local";
