import type { MessageAnswer } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  bankStatementAnswerSchema,
  cardSetupAnswerSchema,
  markPaidAnswerSchema,
  messageAnswerSchema,
  paymentMethodAnswerSchema,
  paymentMethodListAnswerSchema,
  type BankStatementAnswer,
  type CardSetupAnswer,
  type PaymentMethodListAnswer,
  type PaymentMethodPayload,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { creditKeys } from './credit.ts';
import { invoiceKeys } from './invoices.ts';
import { queryKeys } from './queries.ts';

/* Saved payment methods and the admins' confirmation of bank transfers. */

export const paymentKeys = { methods: ['payment-methods'] as const };

export type PaymentMethodAnswer = z.output<typeof paymentMethodAnswerSchema>;
export type MarkPaidAnswer = z.output<typeof markPaidAnswerSchema>;

/** GET /api/account/payment-methods: the methods (default first) and the kinds that may be added. */
export function usePaymentMethods(enabled = true) {
  return useQuery<PaymentMethodListAnswer, ApiError>({
    queryKey: paymentKeys.methods,
    queryFn: ({ signal }) => apiRequest('/account/payment-methods', { schema: paymentMethodListAnswerSchema, signal }),
    enabled,
  });
}

function useRefreshMethods() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: paymentKeys.methods });
}

/** POST /api/account/payment-methods */
export function usePaymentMethodAdd() {
  const refresh = useRefreshMethods();
  return useMutation<PaymentMethodAnswer, ApiError, PaymentMethodPayload>({
    mutationFn: (payload) => apiRequest('/account/payment-methods', { method: 'POST', body: payload, schema: paymentMethodAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/**
 * POST /api/account/payment-methods/card-setup: the URL of Stripe's hosted page where a card is
 * entered (setup mode); the caller sends the browser there.
 */
export function useCardSetupStart() {
  return useMutation<CardSetupAnswer, ApiError, void>({
    mutationFn: () => apiRequest('/account/payment-methods/card-setup', { method: 'POST', schema: cardSetupAnswerSchema }),
  });
}

/** POST /api/account/payment-methods/card-setup/{sessionId}: saves the card after the return from Stripe. */
export function useCardSetupComplete() {
  const refresh = useRefreshMethods();
  return useMutation<PaymentMethodAnswer, ApiError, string>({
    mutationFn: (sessionId) =>
      apiRequest(`/account/payment-methods/card-setup/${encodeURIComponent(sessionId)}`, {
        method: 'POST',
        schema: paymentMethodAnswerSchema,
      }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** PATCH /api/account/payment-methods/{id}/default */
export function usePaymentMethodDefault() {
  const refresh = useRefreshMethods();
  return useMutation<PaymentMethodAnswer, ApiError, number>({
    mutationFn: (id) => apiRequest(`/account/payment-methods/${id}/default`, { method: 'PATCH', schema: paymentMethodAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** DELETE /api/account/payment-methods/{id}: the next one becomes the default. */
export function usePaymentMethodRemove() {
  const refresh = useRefreshMethods();
  return useMutation<MessageAnswer, ApiError, number>({
    mutationFn: (id) => apiRequest(`/account/payment-methods/${id}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** A paid invoice changes the lists, the payer's balance and the header. */
function useRefreshAfterPayment() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
      queryClient.invalidateQueries({ queryKey: creditKeys.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
    ]);
}

/** POST /api/system/invoices/{id}/mark-paid: an admin confirms a bank transfer. */
export function useMarkPaid() {
  const refresh = useRefreshAfterPayment();
  return useMutation<MarkPaidAnswer, ApiError, { id: number; reference?: string }>({
    mutationFn: ({ id, reference }) =>
      apiRequest(`/system/invoices/${id}/mark-paid`, {
        method: 'POST',
        body: reference ? { reference } : {},
        schema: markPaidAnswerSchema,
      }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/**
 * POST /api/system/payments/bank-statement (multipart `file`): each line's match. Super admins
 * name the tenant (the one whose host they use, as the invoice list does); host admins import
 * for their own.
 */
export function useBankStatementImport() {
  const refresh = useRefreshAfterPayment();
  return useMutation<BankStatementAnswer, ApiError, { file: File; tenantId?: number }>({
    mutationFn: ({ file, tenantId }) => {
      const form = new FormData();
      form.append('file', file);
      const query = tenantId === undefined ? '' : `?tenant_id=${tenantId}`;
      return apiRequest(`/system/payments/bank-statement${query}`, { method: 'POST', body: form, schema: bankStatementAnswerSchema });
    },
    onSuccess: () => {
      void refresh();
    },
  });
}
