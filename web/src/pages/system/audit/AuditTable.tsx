import { Fragment } from 'react';
import { Link } from 'react-router';
import { Anchor, Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuditEntryView } from '@berth/contracts';
import type { AuditFilter } from '../../../api/audit.ts';
import { useTenantList } from '../../../api/tenants.ts';
import { formatDateTime, formatRelative } from '../../../components/formatDate.ts';
import { actionLabel, entryDetails, entrySentence, objectLabel, objectName, objectPath, targetName, targetTypeLabel } from './auditText.ts';
import auditClasses from './Audit.module.css';

interface AuditTableProps {
  entries: AuditEntryView[];
  /** Super admins see every tenant's entries: a column says whose. */
  superAdmin: boolean;
  /** A click on an object shows only its entries. */
  onFilter: (next: Partial<AuditFilter>) => void;
  /** A click on a user shows only what they did. */
  onFilterUser: (user: { id: number; display_name: string }) => void;
}

/** The entries, newest first: when, who (and the admin behind them), what, on which object, from where. */
export function AuditTable({ entries, superAdmin, onFilter, onFilterUser }: AuditTableProps) {
  const { t } = useTranslation();
  const tenants = useTenantList(superAdmin);
  const tenantTitles = new Map((tenants.data?.pages.flatMap((page) => page.data) ?? []).map((tenant) => [tenant.id, tenant.title]));

  return (
    <table className={auditClasses.table} data-testid="audit-table">
      <thead>
        <tr>
          <th scope="col">{t('audit.columns.when')}</th>
          <th scope="col">{t('audit.columns.who')}</th>
          <th scope="col">{t('audit.columns.action')}</th>
          <th scope="col">{t('audit.columns.object')}</th>
          {superAdmin ? <th scope="col">{t('audit.columns.tenant')}</th> : null}
          <th scope="col">{t('audit.columns.ip')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
            <td className={auditClasses.when} data-label={t('audit.columns.when')}>
              <time dateTime={entry.created_at} title={formatRelative(entry.created_at)}>
                {formatDateTime(entry.created_at)}
              </time>
            </td>
            <td className={auditClasses.who} data-label={t('audit.columns.who')}>
              <Who entry={entry} onFilterUser={onFilterUser} />
            </td>
            <td className={auditClasses.action} data-label={t('audit.columns.action')}>
              <Text fz="sm" fw={600} component="span" className={auditClasses.block}>
                {actionLabel(entry.action, t)}
              </Text>
              <Text fz="xs" c="dimmed" component="span" className={auditClasses.code}>
                <BreakAtDots text={entry.action} />
              </Text>
            </td>
            <td className={auditClasses.object} data-label={t('audit.columns.object')}>
              <ObjectCell entry={entry} onFilter={onFilter} />
            </td>
            {superAdmin ? (
              <td data-label={t('audit.columns.tenant')}>
                {entry.tenant_id === null ? '—' : (tenantTitles.get(entry.tenant_id) ?? `#${entry.tenant_id}`)}
              </td>
            ) : null}
            <td className={auditClasses.ip} data-label={t('audit.columns.ip')}>
              {entry.ip ?? '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Who({ entry, onFilterUser }: { entry: AuditEntryView; onFilterUser: AuditTableProps['onFilterUser'] }) {
  const { t } = useTranslation();
  if (!entry.user) {
    return (
      <Text fz="sm" c="dimmed" component="span">
        {t('audit.noUser')}
      </Text>
    );
  }
  const user = entry.user;
  return (
    <>
      <Anchor
        component="button"
        type="button"
        fz="sm"
        fw={600}
        className={auditClasses.link}
        title={t('audit.filters.onlyUser', { name: user.display_name })}
        onClick={() => {
          onFilterUser(user);
        }}
      >
        {user.display_name}
      </Anchor>
      {user.email !== user.display_name ? (
        <Text fz="xs" c="dimmed" component="span" className={auditClasses.block}>
          {user.email}
        </Text>
      ) : null}
      {entry.impersonator ? (
        <Text fz="xs" component="span" className={auditClasses.impersonator}>
          <IconUserShield size={14} aria-hidden />
          {t('audit.impersonatedBy', { name: entry.impersonator.display_name })}
        </Text>
      ) : null}
    </>
  );
}

function ObjectCell({ entry, onFilter }: { entry: AuditEntryView; onFilter: AuditTableProps['onFilter'] }) {
  const { t } = useTranslation();
  const target = entry.target;
  const name = objectName(entry);
  const label = objectLabel(entry, t);
  // What the entry recorded (an e-mail, a name since changed), beside the current name.
  const recorded = targetName(entry);
  const path = objectPath(entry);
  const sentence = entrySentence(entry, t);
  const details = entryDetails(entry, t);
  return (
    <>
      {sentence ? (
        <Text fz="sm" component="span" className={auditClasses.block} data-testid="audit-sentence">
          {sentence}
        </Text>
      ) : null}
      {target ? (
        <span className={auditClasses.block}>
          <Text fz="xs" c="dimmed" component="span">
            {targetTypeLabel(target.type, t)}{' '}
          </Text>
          {path ? (
            <Anchor component={Link} to={path} fz="sm" fw={600} c="harbor.7" underline="always" className={auditClasses.link}>
              {label.text}
            </Anchor>
          ) : (
            <Text
              fz={label.gone ? 'xs' : 'sm'}
              c={label.gone ? 'dimmed' : undefined}
              fs={label.gone ? 'italic' : undefined}
              component="span"
            >
              {label.text}
            </Text>
          )}{' '}
          {recorded && recorded !== name ? (
            <Text fz="xs" c="dimmed" component="span">
              {recorded}{' '}
            </Text>
          ) : null}
          <Anchor
            component="button"
            type="button"
            fz="xs"
            c="dimmed"
            className={auditClasses.link}
            aria-label={t('audit.filters.onlyObjectNamed', { name: name ?? targetTypeLabel(target.type, t) })}
            onClick={() => {
              onFilter({ target_type: target.type, target_id: target.id });
            }}
          >
            {t('audit.filters.onlyThis')}
          </Anchor>
        </span>
      ) : name ? (
        <Text fz="sm" component="span" className={auditClasses.block}>
          {name}
        </Text>
      ) : null}
      {details.length ? (
        <Text fz="xs" c="dimmed" component="span" className={auditClasses.details}>
          {details.join(' · ')}
        </Text>
      ) : null}
      {!target && !name && !details.length ? '—' : null}
    </>
  );
}

/** `domain_user.password_reset` may wrap after its dots only, not inside a word. */
function BreakAtDots({ text }: { text: string }) {
  return (
    <>
      {text.split('.').map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <>
              .<wbr />
            </>
          ) : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
