import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type AuditFilter, useAuditPage } from '../../../api/audit.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { useMay, useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { NotAllowed } from '../tenants/NotAllowed.tsx';
import { AuditFilters } from './AuditFilters.tsx';
import { AuditTable } from './AuditTable.tsx';
import classes from '../../Pages.module.css';
import auditClasses from './Audit.module.css';
import { LoadingRows } from '../../../components/ListStates.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

const FILTER_KEYS = ['action', 'user_id', 'target_type', 'target_id', 'tenant_id', 'from', 'to'] as const;

function filterOf(search: URLSearchParams): AuditFilter {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, search.get(key) ?? ''])) as unknown as AuditFilter;
}

/**
 * /system/audit: who did what to which object, when and from where. Host admins read their
 * tenant's entries, super admins everyone's. The filters live in the address (shareable, and
 * the back button undoes one); pages go by the API's cursors.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const may = useMay();
  usePageTitle(t('audit.title'));
  if (!may('audit.view')) return <NotAllowed title={t('audit.notAllowed.title')} body={t('audit.notAllowed.body')} />;
  return <AuditLog superAdmin={user.is_super_admin} />;
}

function AuditLog({ superAdmin }: { superAdmin: boolean }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const filter = filterOf(search);
  const filterKey = JSON.stringify(filter);
  // The cursors of the pages before this one; a new filter starts again on the first page.
  const [trail, setTrail] = useState<{ key: string; cursors: (string | null)[] }>({ key: filterKey, cursors: [] });
  const cursors = trail.key === filterKey ? trail.cursors : [];
  const cursor = cursors.length ? (cursors[cursors.length - 1] ?? null) : null;
  const page = useAuditPage(filter, cursor);
  const entries = page.data?.data ?? [];

  // Names of the users filtered by (from the row clicked), for the filter's label.
  const [userNames, setUserNames] = useState<Record<string, string>>({});
  const filterUser = (user: { id: number; display_name: string }) => {
    setUserNames((names) => ({ ...names, [String(user.id)]: user.display_name }));
    changeFilter({ user_id: String(user.id) });
  };

  const changeFilter = (next: Partial<AuditFilter>) => {
    const merged = { ...filter, ...next };
    const params = new URLSearchParams();
    for (const key of FILTER_KEYS) if (merged[key]) params.set(key, merged[key]);
    setSearch(params);
  };
  const filtered = FILTER_KEYS.some((key) => filter[key] !== '');

  return (
    <div className={classes.page}>
      <PageHeader title={t('audit.title')} description={superAdmin ? t('audit.descriptionAll') : t('audit.descriptionTenant')} />
      <Section id="audit-entries" title={t('audit.entries')}>
        <AuditFilters filter={filter} superAdmin={superAdmin} userName={userNames[filter.user_id]} onChange={changeFilter} />
        {page.isPending ? (
          <LoadingRows height={44} rows={4} testId="audit-loading" />
        ) : page.isError ? (
          <LoadFailed error={page.error} onRetry={() => void page.refetch()} />
        ) : entries.length === 0 ? (
          <Stack align="center" gap="xs" py="xl" ta="center">
            <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
              <IconHistory size={24} stroke={1.6} />
            </ThemeIcon>
            <Text fw={600}>{filtered ? t('audit.emptyFiltered') : t('audit.empty')}</Text>
            {filtered ? (
              <Button variant="default" size="xs" onClick={() => setSearch(new URLSearchParams())}>
                {t('audit.filters.clear')}
              </Button>
            ) : null}
          </Stack>
        ) : (
          <div className={auditClasses.results} aria-busy={page.isFetching || undefined}>
            <AuditTable entries={entries} superAdmin={superAdmin} onFilter={changeFilter} onFilterUser={filterUser} />
          </div>
        )}
        {page.isSuccess && (cursors.length > 0 || page.data.next_cursor) ? (
          <nav aria-label={t('audit.pages')} className={auditClasses.pager}>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconChevronLeft size={14} aria-hidden />}
              disabled={cursors.length === 0 || page.isPlaceholderData}
              onClick={() => {
                setTrail({ key: filterKey, cursors: cursors.slice(0, -1) });
              }}
            >
              {t('audit.newer')}
            </Button>
            <Text fz="sm" c="dimmed">
              {t('audit.page', { page: cursors.length + 1 })}
            </Text>
            <Button
              variant="default"
              size="xs"
              rightSection={<IconChevronRight size={14} aria-hidden />}
              disabled={!page.data.next_cursor || page.isPlaceholderData}
              onClick={() => {
                setTrail({ key: filterKey, cursors: [...cursors, page.data.next_cursor] });
              }}
            >
              {t('audit.older')}
            </Button>
          </nav>
        ) : null}
      </Section>
    </div>
  );
}
