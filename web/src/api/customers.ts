import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  customerAnswerSchema,
  customerListAnswerSchema,
  impersonationAnswerSchema,
  messageAnswerSchema,
  tenantListAnswerSchema,
  type Customer,
  type CustomerCreatePayload,
  type customerUpdatePayloadSchema,
  type SessionData,
  type User,
} from '@berth/contracts';
import { useNavigate } from 'react-router';
import { type ApiError, apiRequest } from './client.ts';
import { type CurrentUser, queryKeys, storeSession } from './queries.ts';

/* The calls of /system/customers (host admins and super admins) and of "log in as customer". */

export const customerKeys = {
  all: ['customers'] as const,
  list: (q: string) => ['customers', 'list', q] as const,
  one: (id: number) => ['customers', id] as const,
  tenants: ['customers', 'tenants'] as const,
};

export type CustomerList = z.output<typeof customerListAnswerSchema>;
export type CustomerAnswer = z.output<typeof customerAnswerSchema>;
export type CustomerUpdatePayload = z.input<typeof customerUpdatePayloadSchema>;

/** GET /api/system/customers?q=: keyset pages (sorted by e-mail), one more on "show more". */
export function useCustomerList(q: string) {
  return useInfiniteQuery<CustomerList, ApiError>({
    queryKey: customerKeys.list(q),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams();
      if (q) query.set('q', q);
      if (typeof pageParam === 'string') query.set('cursor', pageParam);
      const search = query.toString();
      return apiRequest(`/system/customers${search ? `?${search}` : ''}`, { schema: customerListAnswerSchema, signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Typing in the search keeps the last result on screen instead of flashing skeletons.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /api/system/customers/{id} */
export function useCustomer(id: number, enabled = true) {
  return useQuery<Customer, ApiError>({
    enabled,
    queryKey: customerKeys.one(id),
    queryFn: async ({ signal }) => (await apiRequest(`/system/customers/${id}`, { schema: customerAnswerSchema, signal })).data,
    staleTime: 0,
  });
}

/** Any change shows in the detail at once and in every list on its next look. */
function useStoreCustomer() {
  const queryClient = useQueryClient();
  return (customer: Customer) => {
    queryClient.setQueryData(customerKeys.one(customer.id), customer);
    void queryClient.invalidateQueries({ queryKey: customerKeys.all, predicate: (query) => query.queryKey[1] === 'list' });
  };
}

/** GET /api/system/tenants (super admins): where a new customer may go. The first 100 by name. */
export function useTenantOptions(enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.tenants,
    queryFn: async ({ signal }) =>
      (await apiRequest('/system/tenants?limit=100', { schema: tenantListAnswerSchema, signal })).data.map((tenant) => ({
        id: tenant.id,
        title: tenant.title,
      })),
    enabled,
  });
}

/** POST /api/system/customers */
export function useCustomerCreate() {
  const store = useStoreCustomer();
  return useMutation<CustomerAnswer, ApiError, CustomerCreatePayload>({
    mutationFn: (payload) => apiRequest('/system/customers', { method: 'POST', body: payload, schema: customerAnswerSchema }),
    onSuccess: (answer) => {
      store(answer.data);
    },
  });
}

/** PATCH /api/system/customers/{id}: contact data, e-mail, language. */
export function useCustomerUpdate(id: number) {
  const store = useStoreCustomer();
  return useMutation<CustomerAnswer, ApiError, CustomerUpdatePayload>({
    mutationFn: (payload) => apiRequest(`/system/customers/${id}`, { method: 'PATCH', body: payload, schema: customerAnswerSchema }),
    onSuccess: (answer) => {
      store(answer.data);
    },
  });
}

export type CustomerAction = 'lock' | 'unlock' | 'reset-2fa';

/** POST /api/system/customers/{id}/lock | unlock | reset-2fa */
export function useCustomerAction(id: number) {
  const store = useStoreCustomer();
  return useMutation<CustomerAnswer, ApiError, CustomerAction>({
    mutationFn: (action) => apiRequest(`/system/customers/${id}/${action}`, { method: 'POST', schema: customerAnswerSchema }),
    onSuccess: (answer) => {
      store(answer.data);
    },
  });
}

/**
 * DELETE /api/system/customers/{id}?confirm=<e-mail>: the customer and all their domains. The
 * customer's page is left first, so it does not ask for the customer again (a 404).
 */
export function useCustomerDelete(id: number) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation<z.output<typeof messageAnswerSchema>, ApiError, string>({
    mutationFn: (confirm) =>
      apiRequest(`/system/customers/${id}?confirm=${encodeURIComponent(confirm)}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: async (answer) => {
      await navigate('/system/customers', { replace: true, state: { message: answer.message } });
      queryClient.removeQueries({ queryKey: customerKeys.one(id) });
      await queryClient.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}

/**
 * Puts the new session's user in place and drops every other cached answer (what the admin saw
 * is not the customer's, and the other way round). The banner needs `impersonator` before
 * /api/user answers again.
 */
function useSwitchSession() {
  const queryClient = useQueryClient();
  return (session: SessionData, impersonator: User['impersonator']) => {
    storeSession(queryClient, session);
    if (impersonator) {
      queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, (current) =>
        current ? { ...current, user: { ...current.user, impersonator } } : current,
      );
    }
    // Removed, not refetched: the page still on screen may be one the new user cannot open; the
    // queries of what renders next start afresh as the new user.
    queryClient.removeQueries({
      predicate: (query) => query.queryKey[0] !== queryKeys.tenant[0] && query.queryKey[0] !== queryKeys.currentUser[0],
    });
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
  };
}

/**
 * POST /api/system/customers/{id}/impersonate: from now on the session is the customer's. The
 * admin's page is left first, so nothing on it asks for admin data as the customer.
 */
export function useImpersonate(admin: User) {
  const switchSession = useSwitchSession();
  const navigate = useNavigate();
  return useMutation<z.output<typeof impersonationAnswerSchema>, ApiError, number>({
    mutationFn: (id) => apiRequest(`/system/customers/${id}/impersonate`, { method: 'POST', schema: impersonationAnswerSchema }),
    onSuccess: async (answer) => {
      await navigate('/dashboard');
      switchSession(answer.data, { id: admin.id, email: admin.email, display_name: admin.contact.display_name, role: admin.role });
    },
  });
}

/** POST /api/impersonation/stop: back to the admin's own session, then to the customers. */
export function useStopImpersonation() {
  const switchSession = useSwitchSession();
  const navigate = useNavigate();
  return useMutation<z.output<typeof impersonationAnswerSchema>, ApiError>({
    mutationFn: () => apiRequest('/impersonation/stop', { method: 'POST', schema: impersonationAnswerSchema }),
    onSuccess: async (answer) => {
      switchSession(answer.data, null);
      await navigate('/system/customers');
    },
  });
}
