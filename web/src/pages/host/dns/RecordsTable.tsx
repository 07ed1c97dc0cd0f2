import { Fragment, useState } from 'react';
import { ActionIcon, Anchor, Badge, Group } from '@mantine/core';
import { IconPencil, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DnsRecord } from '@berth/contracts';
import { formatDuration } from './formatDuration.ts';
import classes from '../domain-users/DomainPages.module.css';

interface RecordsTableProps {
  records: DnsRecord[];
  onEdit: (record: DnsRecord) => void;
  onDelete: (record: DnsRecord) => void;
  /** Takes a record off the air, or back on. */
  onToggle: (record: DnsRecord) => void;
}

/** A value longer than this (a DKIM key, a long TXT) shows its first lines until opened. */
const LONG_VALUE = 120;

/** Owner names may break after their dots only: `berth202611.` / `_domainkey`. */
const breakableName = (name: string) =>
  name.split('.').map((label, index, labels) => (
    <Fragment key={index}>
      {label}
      {index < labels.length - 1 ? (
        <>
          .<wbr />
        </>
      ) : null}
    </Fragment>
  ));

function RecordValue({ content }: { content: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (content.length <= LONG_VALUE) return <span className={classes.mono}>{content}</span>;
  return (
    <>
      <span className={open ? classes.mono : classes.clampedValue}>{content}</span>
      <Anchor component="button" type="button" fz="xs" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? t('dns.records.showLess') : t('dns.records.showAll', { count: content.length })}
      </Anchor>
    </>
  );
}

/** One row per record: name, type, value, TTL and priority (MX, SRV), with edit, pause and delete. */
export function RecordsTable({ records, onEdit, onDelete, onToggle }: RecordsTableProps) {
  const { t } = useTranslation();
  return (
    <table className={classes.table}>
      <thead>
        <tr>
          <th scope="col">{t('dns.columns.name')}</th>
          <th scope="col">{t('dns.columns.type')}</th>
          <th scope="col">{t('dns.columns.value')}</th>
          <th scope="col">{t('dns.columns.ttl')}</th>
          <th scope="col">{t('dns.columns.priority')}</th>
          <th scope="col">
            <span className={classes.visuallyHidden}>{t('dns.columns.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {records.map((record) => {
          const label = `${record.type} ${record.fqdn}`;
          return (
            <tr key={record.id} data-testid="dns-record-row" className={record.disabled ? classes.disabledRow : undefined}>
              <th scope="row" className={classes.primaryCell}>
                <span className={classes.ownerName} title={record.fqdn}>
                  {breakableName(record.name)}
                </span>
              </th>
              <td data-label={t('dns.columns.type')}>
                <Group gap={4} wrap="nowrap">
                  <Badge variant="light" radius="sm" className={classes.typeBadge}>
                    {record.type}
                  </Badge>
                  {record.disabled ? (
                    <Badge variant="filled" color="gray.7" radius="sm">
                      {t('dns.offAir')}
                    </Badge>
                  ) : null}
                </Group>
              </td>
              <td data-label={t('dns.columns.value')}>
                <RecordValue content={record.content} />
              </td>
              <td data-label={t('dns.columns.ttl')} className={classes.numberCell}>
                <span title={t('dns.seconds', { count: record.ttl })}>{formatDuration(record.ttl)}</span>
              </td>
              <td data-label={t('dns.columns.priority')} className={classes.numberCell}>
                {record.priority ?? ''}
              </td>
              <td className={classes.actionCell}>
                <Group gap={4} wrap="nowrap" justify="flex-end">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="lg"
                    aria-label={t('dns.edit', { record: label })}
                    onClick={() => onEdit(record)}
                  >
                    <IconPencil size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="lg"
                    aria-label={t(record.disabled ? 'dns.enableRecord' : 'dns.disableRecord', { record: label })}
                    onClick={() => onToggle(record)}
                  >
                    {record.disabled ? <IconPlayerPlay size={18} aria-hidden /> : <IconPlayerPause size={18} aria-hidden />}
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('dns.deleteRecord', { record: label })}
                    onClick={() => onDelete(record)}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
