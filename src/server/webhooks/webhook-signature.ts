import { createHmac } from 'node:crypto';

/**
 * Ghost's webhook signature: `X-Webhook-Signature: sha256=<hex>, t=<ms>`, where hex is the
 * HMAC-SHA256, keyed by the webhook's secret, of the body followed by the time in milliseconds
 * (as a decimal string). A receiver recomputes it and compares; the time lets it refuse old replays.
 */
export const SIGNATURE_HEADER = 'X-Webhook-Signature';

export function webhookSignature(secret: string, body: string, timeMs: number): string {
  const hex = createHmac('sha256', secret).update(`${body}${timeMs}`).digest('hex');
  return `sha256=${hex}, t=${timeMs}`;
}
