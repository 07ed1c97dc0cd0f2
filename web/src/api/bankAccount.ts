import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tenantBankAccountAnswerSchema, type TenantBankAccount, type TenantBankAccountPayload } from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { shopKeys } from './shop.ts';

/*
 * The tenant's bank account for bank transfers (/api/system/tenants/{id}/bank-account): host
 * admins for their own tenant, super admins for any. Bank transfer is offered at checkout (and
 * for credit top-ups) only while the tenant has one.
 */

export const bankAccountKeys = {
  all: ['bank-account'] as const,
  tenant: (tenantId: number) => ['bank-account', tenantId] as const,
};

export type BankAccountAnswer = z.output<typeof tenantBankAccountAnswerSchema>;

const path = (tenantId: number) => `/system/tenants/${tenantId}/bank-account`;

/** GET: the account, or null when the tenant has none (bank transfer is off). */
export function useTenantBankAccount(tenantId: number) {
  return useQuery<TenantBankAccount | null, ApiError>({
    queryKey: bankAccountKeys.tenant(tenantId),
    queryFn: async ({ signal }) => (await apiRequest(path(tenantId), { schema: tenantBankAccountAnswerSchema, signal })).data,
  });
}

/**
 * The answer replaces the cached account; the ways to pay change with it (the shop's payment
 * options, cached for minutes, matter when the admin shops at their own tenant).
 */
function useStore(tenantId: number) {
  const queryClient = useQueryClient();
  return (answer: BankAccountAnswer) => {
    queryClient.setQueryData(bankAccountKeys.tenant(tenantId), answer.data);
    void queryClient.invalidateQueries({ queryKey: shopKeys.paymentOptions });
  };
}

/** PUT: set or replace the account; a 422 names the field (IBAN checksum, BIC format, holder). */
export function useTenantBankAccountSave(tenantId: number) {
  const store = useStore(tenantId);
  return useMutation<BankAccountAnswer, ApiError, TenantBankAccountPayload>({
    mutationFn: (payload) => apiRequest(path(tenantId), { method: 'PUT', body: payload, schema: tenantBankAccountAnswerSchema }),
    onSuccess: store,
  });
}

/** DELETE: bank transfer is no longer offered. */
export function useTenantBankAccountRemove(tenantId: number) {
  const store = useStore(tenantId);
  return useMutation<BankAccountAnswer, ApiError, void>({
    mutationFn: () => apiRequest(path(tenantId), { method: 'DELETE', schema: tenantBankAccountAnswerSchema }),
    onSuccess: store,
  });
}
