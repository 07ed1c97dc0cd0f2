import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sellerDetailsAnswerSchema, type SellerDetails, type SellerDetailsPayload } from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';

/*
 * The seller named on the tenant's invoices (/api/system/tenants/{id}/seller-details): host admins
 * for their own tenant, super admins for any. Invoices issued while they are set are e-invoices.
 */

export const sellerDetailsKeys = { tenant: (tenantId: number) => ['seller-details', tenantId] as const };

export type SellerDetailsAnswer = z.output<typeof sellerDetailsAnswerSchema>;

const path = (tenantId: number) => `/system/tenants/${tenantId}/seller-details`;

/** GET: the details, or null while the tenant has set none. */
export function useSellerDetails(tenantId: number) {
  return useQuery<SellerDetails | null, ApiError>({
    queryKey: sellerDetailsKeys.tenant(tenantId),
    queryFn: async ({ signal }) => (await apiRequest(path(tenantId), { schema: sellerDetailsAnswerSchema, signal })).data,
  });
}

/** PUT: a 422 names the field (country code, VAT ID, e-mail, phone, a line left empty). */
export function useSellerDetailsSave(tenantId: number) {
  const queryClient = useQueryClient();
  return useMutation<SellerDetailsAnswer, ApiError, SellerDetailsPayload>({
    mutationFn: (payload) => apiRequest(path(tenantId), { method: 'PUT', body: payload, schema: sellerDetailsAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(sellerDetailsKeys.tenant(tenantId), answer.data);
    },
  });
}
