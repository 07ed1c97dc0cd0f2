import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  catalogueAnswerSchema,
  checkoutAnswerSchema,
  domainCheckAnswerSchema,
  paymentOptionsAnswerSchema,
  shopCartAnswerSchema,
  subscriptionAnswerSchema,
  subscriptionCancelAnswerSchema,
  subscriptionsAnswerSchema,
  type CartAddPayload,
  type Catalogue,
  type CheckoutPayload,
  type DomainCheck,
  type ShopCart,
  type SubscriptionChangePayload,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { shellKeys } from './shell.ts';
import { creditKeys } from './credit.ts';
import { invoiceKeys } from './invoices.ts';

/* The shop's calls: catalogue, domain check, the server-side cart and checkout. */

export const shopKeys = {
  catalogue: ['shop', 'catalogue'] as const,
  domainCheck: (name: string) => ['shop', 'domain-check', name] as const,
  paymentOptions: ['shop', 'payment-options'] as const,
  /** The shell's key: the realtime `cart-updated` event invalidates it (api/realtime.ts). */
  cart: shellKeys.cart,
};

export type CartAnswer = z.output<typeof shopCartAnswerSchema>;
export type CheckoutAnswer = z.output<typeof checkoutAnswerSchema>;
export type PaymentOption = z.output<typeof paymentOptionsAnswerSchema>['data'][number];

/** GET /api/shop/subscriptions: the hosting plans the user bought and what they use of them (/account/services). */
export function useSubscriptions() {
  return useQuery<z.output<typeof subscriptionsAnswerSchema>, ApiError>({
    queryKey: ['shop', 'subscriptions'],
    queryFn: ({ signal }) => apiRequest('/shop/subscriptions', { schema: subscriptionsAnswerSchema, signal }),
    staleTime: 0,
  });
}

/** POST /api/shop/subscriptions/{id}/cancel: the plan ends now, its unused time goes to credit. */
export function useSubscriptionCancel() {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof subscriptionCancelAnswerSchema>, ApiError, number>({
    mutationFn: (id) => apiRequest(`/shop/subscriptions/${id}/cancel`, { method: 'POST', schema: subscriptionCancelAnswerSchema }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['shop', 'subscriptions'] }),
        queryClient.invalidateQueries({ queryKey: creditKeys.all }),
      ]),
  });
}

/** PATCH /api/shop/subscriptions/{id}: switches the plan's automatic renewal. */
export function useSubscriptionAutoRenew() {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof subscriptionAnswerSchema>, ApiError, { id: number; auto_renew: boolean }>({
    mutationFn: ({ id, auto_renew }) =>
      apiRequest(`/shop/subscriptions/${id}`, { method: 'PATCH', body: { auto_renew }, schema: subscriptionAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['shop', 'subscriptions'] }),
  });
}

/**
 * POST /api/shop/subscriptions/{id}/change: the plan ends now, its unused time goes to credit,
 * and the credit pays the new plan, in one step. One idempotency key per attempt (the caller's).
 */
export function useSubscriptionChange() {
  const queryClient = useQueryClient();
  return useMutation<CheckoutAnswer, ApiError, { id: number; payload: SubscriptionChangePayload }>({
    mutationFn: ({ id, payload }) =>
      apiRequest(`/shop/subscriptions/${id}/change`, { method: 'POST', body: payload, schema: checkoutAnswerSchema }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['shop', 'subscriptions'] }),
        queryClient.invalidateQueries({ queryKey: creditKeys.all }),
        queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
      ]),
  });
}

/** GET /api/shop/products: the tenant's plans and TLD prices. */
export function useCatalogue() {
  return useQuery<Catalogue, ApiError>({
    queryKey: shopKeys.catalogue,
    queryFn: async ({ signal }) => (await apiRequest('/shop/products', { schema: catalogueAnswerSchema, signal })).data,
    staleTime: 5 * 60_000,
  });
}

/** GET /api/shop/domain-check?name=: availability in the panel and the TLD's prices. */
export function useDomainCheck(name: string) {
  return useQuery<DomainCheck, ApiError>({
    queryKey: shopKeys.domainCheck(name),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`/shop/domain-check?${new URLSearchParams({ name }).toString()}`, {
          schema: domainCheckAnswerSchema,
          signal,
        })
      ).data,
    enabled: name !== '',
    staleTime: 0,
  });
}

/**
 * GET /api/cart: the whole cart (rows, promo, totals). The header's badge counts its rows; every
 * change anywhere (another tab, another device) arrives as `cart-updated` and refetches it.
 */
export function useShopCart() {
  return useQuery<ShopCart, ApiError>({
    queryKey: shopKeys.cart,
    queryFn: async ({ signal }) => (await apiRequest('/cart', { schema: shopCartAnswerSchema, signal })).data,
  });
}

/** Every cart change answers the whole cart: it replaces the cached one at once. */
function useCartMutation<V>(call: (variables: V) => Promise<CartAnswer>) {
  const queryClient = useQueryClient();
  return useMutation<CartAnswer, ApiError, V>({
    mutationFn: call,
    onSuccess: (answer) => {
      queryClient.setQueryData(shopKeys.cart, answer.data);
    },
  });
}

/** POST /api/cart/items */
export function useCartAdd() {
  return useCartMutation((payload: CartAddPayload) =>
    apiRequest('/cart/items', { method: 'POST', body: payload, schema: shopCartAnswerSchema }),
  );
}

/** PATCH /api/cart/items/{id}: another billing period. */
export function useCartPeriod() {
  return useCartMutation(({ id, period }: { id: number; period: number }) =>
    apiRequest(`/cart/items/${id}`, { method: 'PATCH', body: { period_months: period }, schema: shopCartAnswerSchema }),
  );
}

/** DELETE /api/cart/items/{id} */
export function useCartRemove() {
  return useCartMutation((id: number) => apiRequest(`/cart/items/${id}`, { method: 'DELETE', schema: shopCartAnswerSchema }));
}

/** POST /api/cart/promo: a 422 carries the reason on `code`. */
export function useCartPromoApply() {
  return useCartMutation((code: string) => apiRequest('/cart/promo', { method: 'POST', body: { code }, schema: shopCartAnswerSchema }));
}

/** DELETE /api/cart/promo */
export function useCartPromoRemove() {
  return useCartMutation(() => apiRequest('/cart/promo', { method: 'DELETE', schema: shopCartAnswerSchema }));
}

/** GET /api/shop/payment-options: the ways to pay this tenant offers. */
export function usePaymentOptions() {
  return useQuery<PaymentOption[], ApiError>({
    queryKey: shopKeys.paymentOptions,
    queryFn: async ({ signal }) => (await apiRequest('/shop/payment-options', { schema: paymentOptionsAnswerSchema, signal })).data,
    staleTime: 5 * 60_000,
  });
}

/**
 * POST /api/shop/checkout. The caller keeps one idempotency key per attempt, so a double click
 * or a retry after a lost answer makes one order. The cart is emptied on the server; the
 * domains, invoices and credit balance change with it.
 */
export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation<CheckoutAnswer, ApiError, CheckoutPayload>({
    mutationFn: (payload) => apiRequest('/shop/checkout', { method: 'POST', body: payload, schema: checkoutAnswerSchema }),
    onSuccess: () => {
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: shopKeys.cart }),
        queryClient.invalidateQueries({ queryKey: ['domains'] }),
        queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['credit'] }),
        queryClient.invalidateQueries({ queryKey: ['user'] }),
      ]);
    },
  });
}
