import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ActorSource, AuditService } from '../audit/service.ts';
import { BankTransferProvider, TenantBankAccounts } from './bank-transfer.ts';
import { PaymentConfirmation } from './confirmation.ts';
import { InvoicePdfs } from './invoice-pdf.ts';
import { PaymentMethods } from './methods.ts';
import { SavedCardCharges } from './saved-card.ts';
import { TenantSellerDetails } from './seller-details.ts';
import type { InvoiceSettlement, PaymentProvider } from './provider.ts';
import { paymentAdminRoutes, paymentMethodRoutes, stripeWebhookRoute } from './routes.ts';
import { StripeGateway } from './stripe-gateway.ts';
import { StripeProvider, StripeWebhooks } from './stripe.ts';

/**
 * The payment side as app.ts builds it: the bank transfer and Stripe providers (for the provider
 * registry), the services other modules' routes use (invoice PDFs, confirmation, bank accounts), and
 * the routes of saved methods, bank statements and the Stripe webhook.
 */
export function createPayments(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  config: Config;
  fallbackUrl: string;
  log: FastifyBaseLogger;
  /** The invoices module's: what a confirmed payment settles. */
  settlement: InvoiceSettlement;
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

  const confirmation = new PaymentConfirmation({ db, audit, settlement: deps.settlement });
  const services = {
    methods: new PaymentMethods({ db, clock, audit, stripe: gateway, fallbackUrl: deps.fallbackUrl }),
    confirmation,
    pdfs: new InvoicePdfs({ db, clock, bankTransfer, confirmation }),
    bankAccounts: new TenantBankAccounts({ db, clock, audit }),
    sellerDetails: new TenantSellerDetails({ db, clock, audit }),
    cards: new SavedCardCharges({ db, clock, gateway, settlement: deps.settlement }),
  };

  /** The routes of /account/payment-methods, /system/payments and the Stripe webhook, under /api. */
  const routes = (actors: ActorSource) => async (api: FastifyInstance) => {
    await api.register(paymentMethodRoutes(services.methods, actors));
    await api.register(paymentAdminRoutes(confirmation, actors));
    if (gateway)
      await api.register(stripeWebhookRoute(new StripeWebhooks({ db, clock, gateway, settlement: deps.settlement, audit, log: deps.log })));
  };

  return { bankTransfer, providers, ...services, routes };
}
