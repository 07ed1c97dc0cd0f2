import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditListAnswerSchema } from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { queryString } from './tenants.ts';

/* The call of /system/audit: host admins read their tenant's entries, super admins everyone's. */

export type AuditPage = z.output<typeof auditListAnswerSchema>;

/** What the page filters by; every value as the query string carries it ('' = not set). */
export interface AuditFilter {
  /** An action (`domain.created`) or its area (`domain.`). */
  action: string;
  user_id: string;
  target_type: string;
  target_id: string;
  tenant_id: string;
  /** `YYYY-MM-DD`, the first day shown and the last day shown (both in the viewer's time zone). */
  from: string;
  to: string;
}

export const AUDIT_PAGE_SIZE = 50;

export const auditKeys = {
  all: ['system', 'audit'] as const,
  page: (filter: AuditFilter, cursor: string | null) => ['system', 'audit', filter, cursor] as const,
};

/** A day in the viewer's time zone as the instant it starts: the API compares instants. */
function startOfDay(day: string, plusDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** GET /api/system/audit: one page, newest first; `cursor` continues after an earlier page. */
export function useAuditPage(filter: AuditFilter, cursor: string | null) {
  return useQuery<AuditPage, ApiError>({
    queryKey: auditKeys.page(filter, cursor),
    queryFn: ({ signal }) =>
      apiRequest(
        `/system/audit${queryString({
          action: filter.action,
          user_id: filter.user_id,
          target_type: filter.target_type,
          target_id: filter.target_id,
          tenant_id: filter.tenant_id,
          from: startOfDay(filter.from),
          // "To" includes its whole day: the API's bound is exclusive.
          to: startOfDay(filter.to, 1),
          limit: AUDIT_PAGE_SIZE,
          cursor: cursor ?? undefined,
        })}`,
        { schema: auditListAnswerSchema, signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
