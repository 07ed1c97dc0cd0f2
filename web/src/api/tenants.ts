import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  customerListAnswerSchema,
  tenantDetailAnswerSchema,
  tenantListAnswerSchema,
  type Customer,
  type TenantDetail,
  type TenantLogoKind,
  type tenantCreatePayloadSchema,
  type tenantUpdatePayloadSchema,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { queryKeys } from './queries.ts';

/* The calls of the tenant pages (/system/tenants, super admins). */

export const tenantKeys = {
  all: ['system', 'tenants'] as const,
  list: ['system', 'tenants', 'list'] as const,
  detail: (id: number) => ['system', 'tenants', 'detail', id] as const,
  customers: (tenantId: number, q: string) => ['system', 'tenants', 'customers', tenantId, q] as const,
};

export type TenantPage = z.output<typeof tenantListAnswerSchema>;
export type TenantAnswer = z.output<typeof tenantDetailAnswerSchema>;
export type TenantCreatePayload = z.input<typeof tenantCreatePayloadSchema>;
export type TenantUpdatePayload = z.input<typeof tenantUpdatePayloadSchema>;

const TENANT_PAGE_SIZE = 50;
const CUSTOMER_SEARCH_SIZE = 20;

/** `?a=1&b=x` of the values that are set (empty strings and undefined are left out). */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** GET /api/system/tenants: keyset pages, oldest tenant (the operator's) first. */
export function useTenantList(enabled = true) {
  return useInfiniteQuery<TenantPage, ApiError, InfiniteData<TenantPage>, typeof tenantKeys.list, string | null>({
    queryKey: tenantKeys.list,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/system/tenants${queryString({ limit: TENANT_PAGE_SIZE, cursor: pageParam ?? undefined })}`, {
        schema: tenantListAnswerSchema,
        signal,
      }),
    initialPageParam: null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
  });
}

/** GET /api/system/tenants/{id}: a missing id fails with a 404 ApiError. */
export function useTenantDetail(id: number) {
  return useQuery<TenantDetail, ApiError>({
    queryKey: tenantKeys.detail(id),
    queryFn: async ({ signal }) => (await apiRequest(`/system/tenants/${id}`, { schema: tenantDetailAnswerSchema, signal })).data,
  });
}

/**
 * Every change answers the whole tenant: it replaces the cached one, and the list shows it. A
 * change of the tenant the panel runs under also reaches the shell (title, logo in the header).
 */
function useStoreTenant() {
  const queryClient = useQueryClient();
  return (answer: TenantAnswer) => {
    queryClient.setQueryData(tenantKeys.detail(answer.data.id), answer.data);
    void queryClient.invalidateQueries({ queryKey: tenantKeys.list });
    const current = queryClient.getQueryData<{ id: number }>(queryKeys.tenant);
    if (current?.id === answer.data.id) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.tenant });
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    }
  };
}

/** POST /api/system/tenants → the new tenant and the server's message. */
export function useTenantCreate() {
  const store = useStoreTenant();
  return useMutation<TenantAnswer, ApiError, TenantCreatePayload>({
    mutationFn: (payload) => apiRequest('/system/tenants', { method: 'POST', body: payload, schema: tenantDetailAnswerSchema }),
    onSuccess: store,
  });
}

/** PATCH /api/system/tenants/{id} (hosts and name servers replace the lists). */
export function useTenantUpdate(id: number) {
  const store = useStoreTenant();
  return useMutation<TenantAnswer, ApiError, TenantUpdatePayload>({
    mutationFn: (payload) => apiRequest(`/system/tenants/${id}`, { method: 'PATCH', body: payload, schema: tenantDetailAnswerSchema }),
    onSuccess: store,
  });
}

/** POST /api/system/tenants/{id}/logo/{kind}: multipart field "image". */
export function useTenantLogoUpload(id: number) {
  const store = useStoreTenant();
  return useMutation<TenantAnswer, ApiError, { kind: TenantLogoKind; file: File }>({
    mutationFn: ({ kind, file }) => {
      const form = new FormData();
      form.append('image', file);
      return apiRequest(`/system/tenants/${id}/logo/${kind}`, { method: 'POST', body: form, schema: tenantDetailAnswerSchema });
    },
    onSuccess: store,
  });
}

/** DELETE /api/system/tenants/{id}/logo/{kind} */
export function useTenantLogoRemove(id: number) {
  const store = useStoreTenant();
  return useMutation<TenantAnswer, ApiError, TenantLogoKind>({
    mutationFn: (kind) => apiRequest(`/system/tenants/${id}/logo/${kind}`, { method: 'DELETE', schema: tenantDetailAnswerSchema }),
    onSuccess: store,
  });
}

/** POST /api/system/tenants/{id}/admins and DELETE .../admins/{userId}: their sessions end. */
export function useTenantAdminChange(id: number) {
  const store = useStoreTenant();
  const queryClient = useQueryClient();
  return useMutation<TenantAnswer, ApiError, { userId: number; admin: boolean }>({
    mutationFn: ({ userId, admin }) =>
      admin
        ? apiRequest(`/system/tenants/${id}/admins`, { method: 'POST', body: { user_id: userId }, schema: tenantDetailAnswerSchema })
        : apiRequest(`/system/tenants/${id}/admins/${userId}`, { method: 'DELETE', schema: tenantDetailAnswerSchema }),
    onSuccess: (answer) => {
      store(answer);
      // An admin is no longer a customer (and back): the candidates change.
      void queryClient.invalidateQueries({ queryKey: ['system', 'tenants', 'customers', id] });
    },
  });
}

/** GET /api/system/customers?tenant_id=&q=: the tenant's customers who could become its host admins. */
export function useTenantCustomerSearch(tenantId: number, q: string) {
  return useQuery<Customer[], ApiError>({
    queryKey: tenantKeys.customers(tenantId, q.trim()),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`/system/customers${queryString({ tenant_id: tenantId, q: q.trim(), limit: CUSTOMER_SEARCH_SIZE })}`, {
          schema: customerListAnswerSchema,
          signal,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** The preview of a stored logo (super admins only), versioned by the upload so a new one shows at once. */
export function tenantLogoPreviewUrl(tenant: TenantDetail, kind: TenantLogoKind): string | null {
  const url = tenant.config[kind];
  if (!url) return null;
  const version = new URL(url, window.location.origin).searchParams.get('v') ?? '';
  return `/api/system/tenants/${tenant.id}/logo/${kind}${queryString({ v: version })}`;
}
