import { useMemo, useState } from 'react';
import { Button, NativeSelect, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDownload, IconFileImport, IconList, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DNS_RECORD_TYPES, type DnsRecord, type DnsRecordType, type Domain } from '@berth/contracts';
import { useDnsRecordDelete, useDnsRecordUpdate, useDnsZone } from '../../../api/dns.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import { DeleteDialog } from '../../../components/DeleteDialog.tsx';
import { DomainPageFrame, useDomainIdParam } from '../domain-users/DomainPageFrame.tsx';
import { RecordDialog } from './RecordDialog.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import { RecordsTable } from './RecordsTable.tsx';
import { DnssecSection } from './DnssecSection.tsx';
import { MailRecordsSection } from './MailRecordsSection.tsx';
import { SoaSection } from './SoaSection.tsx';
import classes from '../domain-users/DomainPages.module.css';
import { ServingNotice } from '../../../components/ServingNotice.tsx';

const TYPE_ORDER = new Map<DnsRecordType, number>(DNS_RECORD_TYPES.map((type, index) => [type, index]));
const byTypeThenName = (a: DnsRecord, b: DnsRecord) =>
  (TYPE_ORDER.get(a.type) ?? 0) - (TYPE_ORDER.get(b.type) ?? 0) ||
  a.fqdn.localeCompare(b.fqdn) ||
  (a.priority ?? 0) - (b.priority ?? 0) ||
  a.content.localeCompare(b.content);

/** /host/domain/{id}/dns: the domain's zone, its SOA serial and its records. */
export function DnsPage() {
  const { t } = useTranslation();
  const domainId = useDomainIdParam();
  const [editing, setEditing] = useState<DnsRecord | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  // The zone loads alongside the domain rather than after it.
  useDnsZone(domainId ?? 0, domainId !== null);

  return (
    <DomainPageFrame
      domainId={domainId}
      pageName={t('dns.pageName')}
      title={(domain) => t('dns.title', { domain })}
      description={t('dns.description')}
      actions={(domain) => (
        <>
          <Button
            component="a"
            href={`/api/host/domain/${domain.id}/dns/export`}
            download
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            {t('dns.export')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconFileImport size={16} aria-hidden />}
            onClick={() => {
              setImporting(true);
            }}
          >
            {t('dns.import.open')}
          </Button>
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => {
              setEditing('new');
            }}
          >
            {t('dns.add')}
          </Button>
        </>
      )}
    >
      {(domain) => (
        <>
          <ServingNotice service="dns" />
          <Zone domain={domain} editing={editing} onEdit={setEditing} />
          <ImportDialog
            domainId={domain.id}
            zone={domain.text}
            opened={importing}
            onClose={() => {
              setImporting(false);
            }}
          />
        </>
      )}
    </DomainPageFrame>
  );
}

interface ZoneProps {
  domain: Domain;
  editing: DnsRecord | 'new' | null;
  onEdit: (record: DnsRecord | 'new' | null) => void;
}

function Zone({ domain, editing, onEdit }: ZoneProps) {
  const { t } = useTranslation();
  const zone = useDnsZone(domain.id);
  const remove = useDnsRecordDelete(domain.id);
  const update = useDnsRecordUpdate(domain.id);
  const toggle = (record: DnsRecord) => {
    update.mutate(
      { record, payload: { disabled: !record.disabled } },
      {
        onSuccess: (answer) => {
          const key = answer.data.disabled ? 'dns.disabledDone' : 'dns.enabledDone';
          pushMessage({ type: 'notice', data: t(key, { record: `${record.type} ${record.fqdn}` }), timeout: NOTICE_TIMEOUT_MS });
        },
        onError: (error) => {
          pushMessage({ type: 'error', data: describeError(error, t), timeout: NOTICE_TIMEOUT_MS });
        },
      },
    );
  };
  const [deleting, setDeleting] = useState<DnsRecord | null>(null);
  const [filter, setFilter] = useState<DnsRecordType | ''>('');

  const records = useMemo(() => [...(zone.data?.records ?? [])].sort(byTypeThenName), [zone.data]);
  const counts = useMemo(() => {
    const map = new Map<DnsRecordType, number>();
    for (const record of records) map.set(record.type, (map.get(record.type) ?? 0) + 1);
    return map;
  }, [records]);
  const shown = filter ? records.filter((record) => record.type === filter) : records;

  if (zone.isPending) {
    return (
      <Stack gap="lg" aria-busy="true">
        <Skeleton height={140} radius="lg" />
        <Skeleton height={260} radius="lg" />
      </Stack>
    );
  }
  if (zone.isError) {
    return (
      <FormAlert kind="error">
        <Stack gap="xs" align="flex-start">
          <span>{describeError(zone.error, t)}</span>
          <Button size="xs" variant="default" onClick={() => void zone.refetch()}>
            {t('app.tryAgain')}
          </Button>
        </Stack>
      </FormAlert>
    );
  }

  return (
    <>
      <SoaSection zone={zone.data} />
      <Section
        id="records"
        title={t('dns.records.title')}
        aside={
          <Text fz="sm" c="dimmed">
            {t('dns.records.count', { count: records.length })}
          </Text>
        }
      >
        {records.length === 0 ? (
          <Stack align="center" gap="xs" ta="center" className={classes.empty}>
            <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
              <IconList size={24} stroke={1.6} />
            </ThemeIcon>
            <Text fw={600}>{t('dns.records.emptyTitle')}</Text>
            <Text fz="sm" c="dimmed" maw={420}>
              {t('dns.records.empty')}
            </Text>
            <Button mt="xs" variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => onEdit('new')}>
              {t('dns.add')}
            </Button>
          </Stack>
        ) : (
          <>
            <div className={classes.toolbar}>
              <NativeSelect
                label={t('dns.records.filter')}
                value={filter}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setFilter(DNS_RECORD_TYPES.find((type) => type === value) ?? '');
                }}
                data={[
                  { value: '', label: t('dns.records.allTypes', { count: records.length }) },
                  ...DNS_RECORD_TYPES.filter((type) => counts.has(type)).map((type) => ({
                    value: type,
                    label: `${type} (${counts.get(type) ?? 0})`,
                  })),
                ]}
              />
            </div>
            <RecordsTable records={shown} onEdit={onEdit} onDelete={setDeleting} onToggle={toggle} />
          </>
        )}
      </Section>

      <MailRecordsSection domainId={domain.id} zone={zone.data} />

      <DnssecSection domainId={domain.id} zone={zone.data} />

      <RecordDialog domainId={domain.id} zone={zone.data.zone} editing={editing} onClose={() => onEdit(null)} />
      <DeleteDialog
        target={deleting}
        title={t('dns.delete.title')}
        confirmLabel={t('dns.delete.confirm')}
        remove={(record) => remove.mutateAsync(record)}
        done="dns.delete.done"
        onClose={() => {
          setDeleting(null);
        }}
      >
        {deleting
          ? t('dns.delete.body', {
              record: `${deleting.fqdn} ${deleting.type} ${deleting.priority ?? ''} ${deleting.content}`.replace(/\s+/g, ' '),
            })
          : null}
      </DeleteDialog>
    </>
  );
}
