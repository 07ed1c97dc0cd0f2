import type { WebhookEventData, WebhookEventType } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';

/** What the services that emit events need of the webhooks (service.ts): emitted in their transaction. */
export interface EventSink {
  emit<T extends WebhookEventType>(db: Db, tenantId: number, type: T, data: WebhookEventData<T>): Promise<void>;
}

/** An invoice as the invoice.created and invoice.paid events carry it. */
export const invoiceData = (row: {
  id: number;
  number: string;
  user_id: number;
  gross: number | string;
  currency: string;
  kind: string;
}) => ({
  invoice: {
    id: row.id,
    number: row.number,
    customer_id: row.user_id,
    // Stored in minor units (cents): the event says 12.10, as the invoice does.
    total: { amount: (Number(row.gross) / 100).toFixed(2), currency: row.currency },
    kind: row.kind,
  },
});
