import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ActorSource, AuditService } from '../audit/service.ts';
import { BankTransferProvider, TenantBankAccounts } from './bank-transfer.ts';
import { PaymentConfirmation } from './confirmation.ts';
import { InvoicePdfs } from './invoice-pdf.ts';
import { PaymentMethods } from './methods.ts';
import type { InvoiceSettlement, PaymentProvider } from './provider.ts';
import { paymentAdminRoutes, paymentMethodRoutes, stripeWebhookRoute } from './routes.ts';
import { StripeGateway } from './stripe-gateway.ts';
import { StripeProvider, StripeWebhooks } from './stripe.ts';

/**
 * The payment side as app.ts builds it: the bank transfer and Stripe providers (for the provider
 * registry), and the routes of saved methods, confirmation, invoice PDFs and the Stripe webhook.
 */
export function createPayments(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  config: Config;
  fallbackUrl: string;
  log: FastifyBaseLogger;
}) {
  const { db, clock, audit, config } = deps;
  const gateway =
    config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? new StripeGateway({
          secretKey: config.STRIPE_SECRET_KEY,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          apiBase: config.STRIPE_API_BASE,
        })
      : null;
  const bankTransfer = new BankTransferProvider(db);
  const providers: PaymentProvider[] = [bankTransfer, new StripeProvider({ gateway, fallbackUrl: deps.fallbackUrl })];

  /** Registers the routes under /api; `settlement` is the invoices module's. */
  const routes = (settlement: InvoiceSettlement, actors: ActorSource) => async (api: FastifyInstance) => {
    const confirmation = new PaymentConfirmation({ db, audit, settlement });
    await api.register(
      paymentMethodRoutes(new PaymentMethods({ db, clock, audit, stripe: gateway, fallbackUrl: deps.fallbackUrl }), actors),
    );
    await api.register(
      paymentAdminRoutes({
        pdfs: new InvoicePdfs({ db, clock, bankTransfer, confirmation }),
        bankAccounts: new TenantBankAccounts({ db, clock, audit }),
        confirmation,
        actors,
      }),
    );
    if (gateway) await api.register(stripeWebhookRoute(new StripeWebhooks({ db, clock, gateway, settlement, audit, log: deps.log })));
  };

  return { bankTransfer, providers, routes };
}
