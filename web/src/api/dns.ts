import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  dnsRecordAnswerSchema,
  dnssecAnswerSchema,
  dkimAnswerSchema,
  dnsImportAnswerSchema,
  type DnsImportAnswer,
  type dnsRecordPayloadSchema,
  dnsZoneAnswerSchema,
  messageAnswerSchema,
  soaSchema,
  type DnsRecord,
} from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

/* The calls of /host/domain/{id}/dns: a domain's zone, its records and SOA serial. */

export const dnsKeys = {
  /** Under the `domains` prefix, so anything that refreshes a domain refreshes its zone too. */
  zone: (domainId: number) => ['domains', domainId, 'dns'] as const,
};

export type DnsZone = z.output<typeof dnsZoneAnswerSchema>['data'];
export type DnsRecordAnswer = z.output<typeof dnsRecordAnswerSchema>;
const deletedAnswerSchema = messageAnswerSchema.extend({ soa: soaSchema });
export type DnsDeletedAnswer = z.output<typeof deletedAnswerSchema>;

/** GET /api/host/domain/{id}/dns: the SOA and every record (a zone is small and bounded). */
export function useDnsZone(domainId: number, enabled = true) {
  return useQuery<DnsZone, ApiError>({
    queryKey: dnsKeys.zone(domainId),
    enabled,
    queryFn: async ({ signal }) => (await apiRequest(`/host/domain/${domainId}/dns`, { schema: dnsZoneAnswerSchema, signal })).data,
  });
}

/** Every change bumps the serial: the answer's SOA goes into the cached zone, then it reloads. */
function useZoneChanged(domainId: number) {
  const queryClient = useQueryClient();
  return (answer: { soa: DnsZone['soa'] }) => {
    queryClient.setQueryData<DnsZone>(dnsKeys.zone(domainId), (zone) => (zone ? { ...zone, soa: answer.soa } : zone));
    return queryClient.invalidateQueries({ queryKey: ['domains', domainId] });
  };
}

/** POST /api/host/domain/{id}/dns */
export function useDnsRecordCreate(domainId: number) {
  const changed = useZoneChanged(domainId);
  return useMutation<DnsRecordAnswer, ApiError, DnsRecordInput>({
    mutationFn: (payload) => apiRequest(`/host/domain/${domainId}/dns`, { method: 'POST', body: payload, schema: dnsRecordAnswerSchema }),
    onSuccess: changed,
  });
}

/** POST /api/host/domain/{id}/dns/import: a BIND zone file's records added, all or none. */
export function useDnsImport(domainId: number) {
  const changed = useZoneChanged(domainId);
  return useMutation<DnsImportAnswer, ApiError, string>({
    mutationFn: (zoneFile) =>
      apiRequest(`/host/domain/${domainId}/dns/import`, { method: 'POST', body: { zone_file: zoneFile }, schema: dnsImportAnswerSchema }),
    onSuccess: changed,
  });
}

/** PATCH /api/host/domain/{id}/dns/{recordId} */
export function useDnsRecordUpdate(domainId: number) {
  const changed = useZoneChanged(domainId);
  return useMutation<DnsRecordAnswer, ApiError, { record: DnsRecord; payload: Partial<DnsRecordInput> }>({
    mutationFn: ({ record, payload }) =>
      apiRequest(`/host/domain/${domainId}/dns/${record.id}`, { method: 'PATCH', body: payload, schema: dnsRecordAnswerSchema }),
    onSuccess: changed,
  });
}

/** DELETE /api/host/domain/{id}/dns/{recordId} */
export function useDnsRecordDelete(domainId: number) {
  const changed = useZoneChanged(domainId);
  return useMutation<DnsDeletedAnswer, ApiError, DnsRecord>({
    mutationFn: (record) => apiRequest(`/host/domain/${domainId}/dns/${record.id}`, { method: 'DELETE', schema: deletedAnswerSchema }),
    onSuccess: changed,
  });
}

/** What a create or change sends: `disabled` may be left out (a new record is served). */
export type DnsRecordInput = z.input<typeof dnsRecordPayloadSchema>;

export type DnssecAnswer = z.output<typeof dnssecAnswerSchema>;

/** POST (sign) or DELETE (stop signing) /api/host/domain/{id}/dns/dnssec */
export function useDnssec(domainId: number) {
  const queryClient = useQueryClient();
  return useMutation<DnssecAnswer, ApiError, boolean>({
    mutationFn: (sign) =>
      apiRequest(`/host/domain/${domainId}/dns/dnssec`, { method: sign ? 'POST' : 'DELETE', schema: dnssecAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData<DnsZone>(dnsKeys.zone(domainId), (zone) =>
        zone ? { ...zone, soa: answer.soa, dnssec: answer.data } : zone,
      );
      return queryClient.invalidateQueries({ queryKey: ['domains', domainId] });
    },
  });
}

export type DkimAnswer = z.output<typeof dkimAnswerSchema>;

/** POST /api/host/domain/{id}/dns/dkim: make the domain's DKIM key if it has none and publish it. */
/** "Rotate DKIM key": a new key published beside the signing one (409 while a rotation is under way). */
export function useDkimRotate(domainId: number) {
  const changed = useZoneChanged(domainId);
  return useMutation<DkimAnswer, ApiError, void>({
    mutationFn: () => apiRequest(`/host/domain/${domainId}/dns/dkim/rotate`, { method: 'POST', schema: dkimAnswerSchema }),
    onSuccess: changed,
  });
}

export function useDkimPublish(domainId: number) {
  const changed = useZoneChanged(domainId);
  return useMutation<DkimAnswer, ApiError, void>({
    mutationFn: () => apiRequest(`/host/domain/${domainId}/dns/dkim`, { method: 'POST', schema: dkimAnswerSchema }),
    onSuccess: changed,
  });
}
