import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { invoiceAnswerSchema, invoiceListAnswerSchema, type EInvoiceFormat, type Invoice, type InvoiceStatus } from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';

/* Invoices: the buyer's own (/account/invoices) and the tenant's for admins (/system/invoices). */

export type InvoiceScope = 'account' | 'system';
export type InvoiceStatusFilter = InvoiceStatus | '';

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (scope: InvoiceScope, status: InvoiceStatusFilter) => ['invoices', scope, 'list', status] as const,
  detail: (scope: InvoiceScope, id: number) => ['invoices', scope, 'detail', id] as const,
};

export type InvoicePage = z.output<typeof invoiceListAnswerSchema>;

const PAGE_SIZE = 50;

/** GET /api/{account|system}/invoices: keyset pages, newest first. */
export function useInvoiceList(scope: InvoiceScope, status: InvoiceStatusFilter = '') {
  return useInfiniteQuery<InvoicePage, ApiError, InfiniteData<InvoicePage>, ReturnType<typeof invoiceKeys.list>, string | null>({
    queryKey: invoiceKeys.list(scope, status),
    queryFn: ({ pageParam, signal }) => {
      const search = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (status) search.set('status', status);
      if (pageParam) search.set('cursor', pageParam);
      return apiRequest(`/${scope}/invoices?${search.toString()}`, { schema: invoiceListAnswerSchema, signal });
    },
    initialPageParam: null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/{account|system}/invoices/{id}: a foreign id is a 404. */
export function useInvoice(scope: InvoiceScope, id: number) {
  return useQuery<Invoice, ApiError>({
    queryKey: invoiceKeys.detail(scope, id),
    queryFn: async ({ signal }) => (await apiRequest(`/${scope}/invoices/${id}`, { schema: invoiceAnswerSchema, signal })).data,
  });
}

/** Where the browser downloads an invoice's PDF (a plain link: the session cookie goes along). */
export const invoicePdfUrl = (scope: InvoiceScope, id: number): string => `/api/${scope}/invoices/${id}/pdf`;

/** Where the browser downloads an invoice as EN 16931 XML in one of the offered syntaxes. */
export const eInvoiceUrl = (scope: InvoiceScope, id: number, format: EInvoiceFormat): string =>
  `/api/${scope}/invoices/${id}/e-invoice?format=${format}`;

/** POST /api/account/invoices/{id}/pay: an unpaid renewal paid from the user's credit (ends a suspension it was the reason for). */
export function usePayInvoiceFromCredit() {
  const client = useQueryClient();
  return useMutation<{ data: Invoice; message?: string | undefined }, ApiError, number>({
    mutationFn: (id) =>
      apiRequest(`/account/invoices/${id}/pay`, { method: 'POST', body: { payment: 'credit' }, schema: invoiceAnswerSchema }),
    onSuccess: () => {
      void client.invalidateQueries();
    },
  });
}
