import { DateField } from '../../../forms/DateField.tsx';
import { Button, CloseButton, Select } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuditFilter } from '../../../api/audit.ts';
import { useTenantList } from '../../../api/tenants.ts';
import { actionFilterLabel, actionLabel, AUDIT_ACTIONS, AUDIT_AREAS, targetTypeLabel } from './auditText.ts';
import auditClasses from './Audit.module.css';

interface AuditFiltersProps {
  filter: AuditFilter;
  superAdmin: boolean;
  /** The name of the user filtered by, when known. */
  userName: string | undefined;
  onChange: (next: Partial<AuditFilter>) => void;
}

/** Action (or a whole area), time span and, for super admins, tenant; user and object come from the table. */
export function AuditFilters({ filter, superAdmin, userName, onChange }: AuditFiltersProps) {
  const { t } = useTranslation();
  const tenants = useTenantList(superAdmin);
  const tenantOptions = (tenants.data?.pages.flatMap((page) => page.data) ?? []).map((tenant) => ({
    value: String(tenant.id),
    label: tenant.title,
  }));
  if (filter.tenant_id && !tenantOptions.some((option) => option.value === filter.tenant_id)) {
    tenantOptions.push({ value: filter.tenant_id, label: `#${filter.tenant_id}` });
  }
  const actionOptions = AUDIT_AREAS.map((area) => ({
    group: t(`audit.areas.${area}`),
    items: [
      { value: `${area}.`, label: actionFilterLabel(`${area}.`, t) },
      ...AUDIT_ACTIONS[area].map((action) => ({ value: action, label: actionLabel(action, t) })),
    ],
  }));
  if (filter.action && !actionOptions.some((group) => group.items.some((item) => item.value === filter.action))) {
    actionOptions.push({ group: t('audit.filters.other'), items: [{ value: filter.action, label: filter.action }] });
  }
  const any = Object.values(filter).some((value) => value !== '');

  return (
    <div className={auditClasses.filters} role="search" aria-label={t('audit.filters.label')}>
      <div className={auditClasses.filterRow}>
        <Select
          className={auditClasses.actionFilter}
          label={t('audit.filters.action')}
          placeholder={t('audit.filters.anyAction')}
          data={actionOptions}
          value={filter.action || null}
          onChange={(value) => {
            onChange({ action: value ?? '' });
          }}
          searchable
          clearable
          nothingFoundMessage={t('audit.filters.noAction')}
          comboboxProps={{ withinPortal: true }}
        />
        <DateField
          className={auditClasses.dateFilter}
          label={t('audit.filters.from')}
          value={filter.from}
          max={filter.to}
          onChange={(from) => {
            onChange({ from });
          }}
        />
        <DateField
          className={auditClasses.dateFilter}
          label={t('audit.filters.to')}
          value={filter.to}
          min={filter.from}
          onChange={(to) => {
            onChange({ to });
          }}
        />
        {superAdmin ? (
          <Select
            className={auditClasses.tenantFilter}
            label={t('audit.filters.tenant')}
            placeholder={t('audit.filters.anyTenant')}
            data={tenantOptions}
            value={filter.tenant_id || null}
            onChange={(value) => {
              onChange({ tenant_id: value ?? '' });
            }}
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
      </div>
      {any ? (
        <div className={auditClasses.chips}>
          {filter.user_id ? (
            <FilterChip
              label={t('audit.filters.user', { name: userName ?? `#${filter.user_id}` })}
              clearLabel={t('audit.filters.clearUser')}
              onClear={() => {
                onChange({ user_id: '' });
              }}
            />
          ) : null}
          {filter.target_type ? (
            <FilterChip
              label={t('audit.filters.object', { type: targetTypeLabel(filter.target_type, t), id: filter.target_id })}
              clearLabel={t('audit.filters.clearObject')}
              onClear={() => {
                onChange({ target_type: '', target_id: '' });
              }}
            />
          ) : null}
          {any ? (
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconFilterOff size={14} aria-hidden />}
              onClick={() => {
                onChange({ action: '', user_id: '', target_type: '', target_id: '', tenant_id: '', from: '', to: '' });
              }}
            >
              {t('audit.filters.clear')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function FilterChip({ label, clearLabel, onClear }: { label: string; clearLabel: string; onClear: () => void }) {
  return (
    <span className={auditClasses.chip}>
      <span>{label}</span>
      <CloseButton size="sm" aria-label={clearLabel} onClick={onClear} />
    </span>
  );
}
