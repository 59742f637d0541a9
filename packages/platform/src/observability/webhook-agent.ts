/** The User-Agent of every webhook POST (SPEC.md, push notifications). */
export const WEBHOOK_USER_AGENT = 'Svc-Webhook/1.0';
