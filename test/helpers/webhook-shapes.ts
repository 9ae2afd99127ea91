/** What the webhook routes answer (A and B alike), as the suites read them. */
export interface WebhookObject {
  id: string;
  url: string;
  name: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  lastStatus: number | null;
}

export interface CreatedWebhook extends WebhookObject {
  secret: string;
}

/** One entry of a webhook's delivery log. */
export interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'abandoned';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

/** What POST .../{id}/test answers. */
export interface TestResult {
  success: boolean;
  statusCode: number;
  durationMs: number;
  error: string | null;
}
