import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A small stand-in for api.stripe.com on loopback, speaking the endpoints Berth calls through the
 * official client (Checkout Sessions, PaymentMethods, Customers, PaymentIntents) and recording
 * what it was sent. Tests never reach Stripe itself.
 */

export const STRIPE_SECRET_KEY = 'sk_test_berth';
export const STRIPE_WEBHOOK_SECRET = 'whsec_berth_test_secret';

export interface StripeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

/** Setup-mode Checkout Sessions the fake opened; a test finishes one as the customer would at Stripe. */
interface SetupSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  customer: string | null;
  metadata: Record<string, string>;
  intent: { id: string; status: string; payment_method: string | null };
}

/** Stripe's test cards by PaymentMethod id; `pm_card_chargeDeclined` is saved fine and declined when charged. */
const CARDS: Record<string, { brand: string; last4: string; exp_month: number; exp_year: number }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031 },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2030 },
  pm_card_amex: { brand: 'amex', last4: '8431', exp_month: 12, exp_year: 2029 },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', exp_month: 1, exp_year: 2032 },
};

const metadataOf = (form: URLSearchParams) =>
  Object.fromEntries([...form].flatMap(([key, value]) => (/^metadata\[(\w+)\]$/.exec(key) ? [[key.slice(9, -1), value]] : [])));

export interface FakeStripe {
  apiBase: string;
  received: StripeRequest[];
  /** PaymentIntents created, in order (what a charge sent: amount, customer, card, metadata). */
  intents: {
    id: string;
    amount: number;
    currency: string;
    customer: string;
    payment_method: string;
    status: string;
    metadata: Record<string, string>;
  }[];
  /** Customers created: id → e-mail. */
  customers: Map<string, string>;
  /** Completes a setup session with a card, as the customer would at Stripe's page. */
  finishSetup(id: string, paymentMethod: string): void;
  /** Answers the next `count` requests with 500 (Stripe unreachable or failing). */
  failNext(count: number): void;
  close(): Promise<void>;
}

export function startFakeStripe(): Promise<FakeStripe> {
  const received: StripeRequest[] = [];
  const setupSessions = new Map<string, SetupSession>();
  const attached = new Map<string, string>();
  const customers = new Map<string, string>();
  const intents: FakeStripe['intents'] = [];
  // Idempotency keys Stripe has seen: the same key answers the same object.
  const idempotent = new Map<string, { status: number; json: unknown }>();
  let failing = 0;

  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const [path = '', query = ''] = (request.url ?? '').split('?');
      const form = new URLSearchParams(body);
      received.push({ method: request.method ?? '', path, query: new URLSearchParams(query), form, headers: request.headers });
      const key = request.headers['idempotency-key'];
      const send = (status: number, json: unknown) => {
        if (typeof key === 'string' && request.method === 'POST') idempotent.set(`${path}:${key}`, { status, json });
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${received.length}` });
        response.end(JSON.stringify(json));
      };
      if (request.headers.authorization !== `Bearer ${STRIPE_SECRET_KEY}`)
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key' } });
      if (failing > 0) {
        failing -= 1;
        response.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
        return response.end(JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong on our end' } }));
      }
      const repeated = typeof key === 'string' ? idempotent.get(`${path}:${key}`) : undefined;
      if (repeated && request.method === 'POST') {
        response.writeHead(repeated.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return response.end(JSON.stringify(repeated.json));
      }

      if (request.method === 'POST' && path === '/v1/customers') {
        const id = `cus_${customers.size + 1}`;
        customers.set(id, form.get('email') ?? '');
        return send(200, { id, object: 'customer', email: form.get('email'), metadata: metadataOf(form) });
      }
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${received.length}`;
        if (form.get('mode') === 'setup') {
          const metadata = metadataOf(form);
          setupSessions.set(id, {
            id,
            status: 'open',
            customer: form.get('customer'),
            metadata,
            intent: { id: `seti_${received.length}`, status: 'requires_payment_method', payment_method: null },
          });
          return send(200, {
            id,
            object: 'checkout.session',
            mode: 'setup',
            status: 'open',
            url: `https://checkout.stripe.test/c/setup/${id}`,
            metadata,
          });
        }
        return send(200, { id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}`, payment_status: 'unpaid' });
      }
      const session = request.method === 'GET' ? setupSessions.get(/^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)?.[1] ?? '') : undefined;
      if (session) {
        const expanded = new URLSearchParams(query).getAll('expand[0]').includes('setup_intent');
        const intent = { object: 'setup_intent', ...session.intent, metadata: session.metadata };
        return send(200, {
          id: session.id,
          object: 'checkout.session',
          mode: 'setup',
          status: session.status,
          customer: session.customer,
          metadata: session.metadata,
          setup_intent: expanded ? intent : intent.id,
        });
      }
      const attach = request.method === 'POST' ? /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path)?.[1] : undefined;
      if (attach && CARDS[attach]) {
        attached.set(attach, form.get('customer') ?? '');
        return send(200, { id: attach, object: 'payment_method', type: 'card', card: CARDS[attach], customer: form.get('customer') });
      }
      const cardId = request.method === 'GET' ? (/^\/v1\/payment_methods\/([^/]+)$/.exec(path)?.[1] ?? '') : '';
      const card = CARDS[cardId];
      if (card) return send(200, { id: cardId, object: 'payment_method', type: 'card', card, customer: attached.get(cardId) ?? null });
      if (request.method === 'GET' && path === '/v1/payment_methods/pm_sepa') {
        return send(200, { id: 'pm_sepa', object: 'payment_method', type: 'sepa_debit', sepa_debit: { last4: '3000' } });
      }
      if (request.method === 'POST' && path === '/v1/payment_intents') {
        const paymentMethod = form.get('payment_method') ?? '';
        const customer = form.get('customer') ?? '';
        const id = `pi_${intents.length + 1}`;
        const base = {
          id,
          amount: Number(form.get('amount')),
          currency: form.get('currency') ?? '',
          customer,
          payment_method: paymentMethod,
          metadata: metadataOf(form),
        };
        // Stripe refuses a card that is not attached to the customer named.
        if (attached.get(paymentMethod) !== customer)
          return send(400, {
            error: { type: 'invalid_request_error', message: 'The provided PaymentMethod does not belong to the Customer.' },
          });
        if (paymentMethod === 'pm_card_chargeDeclined') {
          intents.push({ ...base, status: 'requires_payment_method' });
          return send(402, {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: { object: 'payment_intent', status: 'requires_payment_method', ...base },
            },
          });
        }
        intents.push({ ...base, status: 'succeeded' });
        return send(200, { object: 'payment_intent', status: 'succeeded', amount_received: base.amount, ...base });
      }
      return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such resource' } });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve({
        apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        intents,
        customers,
        finishSetup(id, paymentMethod) {
          const session = setupSessions.get(id);
          if (!session) throw new Error(`no setup session ${id}`);
          session.status = 'complete';
          session.intent = { ...session.intent, status: 'succeeded', payment_method: paymentMethod };
          // Checkout in setup mode with a customer attaches the card to it.
          if (session.customer) attached.set(paymentMethod, session.customer);
        },
        failNext(count) {
          failing = count;
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    }),
  );
}
