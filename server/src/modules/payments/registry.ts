import type { PaymentProvider, PaymentProviderId } from './provider.ts';

/** The payment providers this instance offers, looked up by id. */
export class PaymentProviders {
  private readonly byId: Map<PaymentProviderId, PaymentProvider>;

  constructor(providers: readonly PaymentProvider[]) {
    this.byId = new Map(providers.map((provider) => [provider.id, provider]));
  }

  get(id: PaymentProviderId): PaymentProvider | undefined {
    return this.byId.get(id);
  }

  all(): PaymentProvider[] {
    return [...this.byId.values()];
  }
}
