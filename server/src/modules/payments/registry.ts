import type { PaymentProviderName } from '@berth/contracts';
import type { PaymentProvider } from './provider.ts';

/** The payment providers this instance offers, looked up by id. */
export class PaymentProviders {
  private readonly byId: Map<PaymentProviderName, PaymentProvider>;

  constructor(providers: readonly PaymentProvider[]) {
    this.byId = new Map(providers.map((provider) => [provider.id, provider]));
  }

  get(id: PaymentProviderName): PaymentProvider | undefined {
    return this.byId.get(id);
  }

  all(): PaymentProvider[] {
    return [...this.byId.values()];
  }
}
