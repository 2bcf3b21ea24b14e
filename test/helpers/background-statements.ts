/**
 * Statements the app runs in the background, not for the request a test counts: the webhook worker's polls
 * and claims, and an API key's use (recorded at most once a minute per key and not awaited by the request:
 * src/modules/organizations/key-use.ts), which lands in whichever window is open when a key's minute comes round.
 */
export const isBackground = (sql: string): boolean => /webhook/.test(sql) || /^\s*update "api_keys" set "last_used_at"/i.test(sql);
