import { useEffect, useState } from 'react';
import { LoadMore } from '../../../components/ListStates.tsx';
import { Link, useSearchParams } from 'react-router';
import { Anchor, Badge, Button, CloseButton, NativeSelect, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconPlus, IconSearch, IconWorld, IconWorldSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DOMAIN_SORTS, type DomainListItem, type DomainSort } from '@berth/contracts';
import { useDomainList } from '../../../api/domains.ts';
import { formatDate } from '../../../components/formatDate.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { domainOverviewPath } from '../../../shell/domainPath.ts';
import { useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { DomainExpiry } from './DomainExpiry.tsx';
import { EmptyState } from './EmptyState.tsx';
import classes from '../../Pages.module.css';
import domainClasses from './Domains.module.css';

const SEARCH_DELAY_MS = 300;
const isSort = (value: string | null): value is DomainSort => DOMAIN_SORTS.some((sort) => sort === value);

/** The search and sort live in the URL (`?q=…&sort=-expire_at`): shareable, and kept on Back. */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const rawSort = params.get('sort');
  const sort: DomainSort = isSort(rawSort) ? rawSort : 'name';
  const update = (changes: { q?: string; sort?: DomainSort }) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (changes.q !== undefined) {
          if (changes.q.trim()) next.set('q', changes.q.trim());
          else next.delete('q');
        }
        if (changes.sort !== undefined) {
          if (changes.sort === 'name') next.delete('sort');
          else next.set('sort', changes.sort);
        }
        return next;
      },
      { replace: true },
    );
  };
  return { q, sort, update };
}

/** /host/domain: the domains the user sees, searchable by name, by name or expiry, 50 at a time. */
export function DomainListPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const isAdmin = user.role !== 'customer';
  const { q, sort, update } = useListParams();
  const [search, setSearch] = useState(q);
  const [debounced] = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    // The URL changed from outside (a menu link, Back): the box shows its search.
    setShownQ(q);
    if (q !== debounced.trim()) setSearch(q);
  }
  const domains = useDomainList({ q, sort });
  usePageTitle(t('domains.list.title'));

  useEffect(() => {
    if (debounced.trim() !== q) update({ q: debounced });
    // Only the typed text drives the URL; `update` is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const rows = domains.data?.pages.flatMap((page) => page.data) ?? [];
  const searching = q !== '';

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('domains.list.title')}
        description={isAdmin ? t('domains.list.descriptionAdmin') : t('domains.list.description')}
        actions={
          <>
            <Button
              component="a"
              href={`/api/host/domain/export.csv?${new URLSearchParams({ sort, ...(q ? { q } : {}) }).toString()}`}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              {t('domains.list.export')}
            </Button>
            <Button component={Link} to="/host/domain/create" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('domains.list.new')}
            </Button>
          </>
        }
      />
      <Section
        id="domains"
        title={t('domains.list.section')}
        aside={
          domains.isPending ? (
            // The count's line, held while the list loads: on a phone it sits under the title, and
            // arriving late it pushed the search box down.
            <Text fz="sm" component="div" aria-hidden>
              <Skeleton width={120} radius="sm" className={domainClasses.countSkeleton} />
            </Text>
          ) : domains.isSuccess && rows.length > 0 ? (
            <Text fz="sm" c="dimmed" data-testid="domain-count">
              {domains.hasNextPage ? t('domains.list.shownMore', { count: rows.length }) : t('domains.list.shown', { count: rows.length })}
            </Text>
          ) : null
        }
      >
        <div className={domainClasses.toolbar} role="search">
          <TextInput
            className={domainClasses.search}
            label={t('domains.list.search')}
            placeholder={t('domains.list.searchPlaceholder')}
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
            }}
            leftSection={<IconSearch size={16} aria-hidden />}
            rightSection={
              search ? (
                <CloseButton
                  size="sm"
                  aria-label={t('domains.list.clearSearch')}
                  onClick={() => {
                    setSearch('');
                    update({ q: '' });
                  }}
                />
              ) : null
            }
            autoComplete="off"
            spellCheck={false}
          />
          <NativeSelect
            className={domainClasses.sort}
            label={t('domains.list.sortLabel')}
            value={sort}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isSort(value)) update({ sort: value });
            }}
            data={DOMAIN_SORTS.map((value) => ({ value, label: t(`domains.sort.${value}`) }))}
          />
        </div>

        {domains.isPending ? (
          <ListSkeleton />
        ) : domains.isError && rows.length === 0 ? (
          <FormAlert kind="error">
            <Stack gap="xs" align="flex-start">
              <span>{describeError(domains.error, t)}</span>
              <Button size="xs" variant="default" onClick={() => void domains.refetch()}>
                {t('app.tryAgain')}
              </Button>
            </Stack>
          </FormAlert>
        ) : rows.length === 0 ? (
          searching ? (
            <EmptyState
              icon={<IconWorldSearch size={24} stroke={1.6} />}
              title={t('domains.list.noMatchTitle')}
              text={t('domains.list.noMatch', { q })}
              action={
                <Button
                  variant="default"
                  size="sm"
                  onClick={() => {
                    setSearch('');
                    update({ q: '' });
                  }}
                >
                  {t('domains.list.clearSearch')}
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={<IconWorld size={24} stroke={1.6} />}
              title={t('domains.list.emptyTitle')}
              text={isAdmin ? t('domains.list.emptyAdmin') : t('domains.list.empty')}
              action={
                <Button component={Link} to="/host/domain/create" size="sm" leftSection={<IconPlus size={16} aria-hidden />}>
                  {t('domains.list.addFirst')}
                </Button>
              }
            />
          )
        ) : (
          <>
            <table className={domainClasses.table} aria-busy={domains.isPlaceholderData || undefined} data-testid="domain-table">
              <thead>
                <tr>
                  <th scope="col" aria-sort={sort === 'name' ? 'ascending' : sort === '-name' ? 'descending' : undefined}>
                    {t('domains.list.colName')}
                  </th>
                  {isAdmin ? <th scope="col">{t('domains.list.colOwner')}</th> : null}
                  <th scope="col" aria-sort={sort === 'expire_at' ? 'ascending' : sort === '-expire_at' ? 'descending' : undefined}>
                    {t('domains.list.colExpiry')}
                  </th>
                  <th scope="col">{t('domains.list.colCreated')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((domain) => (
                  <DomainRow key={domain.id} domain={domain} showOwner={isAdmin} />
                ))}
              </tbody>
            </table>
            {domains.isFetchNextPageError ? <FormAlert kind="error">{describeError(domains.error, t)}</FormAlert> : null}
            <LoadMore pages={domains} label={t('domains.list.loadMore')} />
          </>
        )}
      </Section>
    </div>
  );
}

function DomainRow({ domain, showOwner }: { domain: DomainListItem; showOwner: boolean }) {
  const { t } = useTranslation();
  return (
    <tr data-expired={domain.expired || undefined} data-testid="domain-row">
      <td className={domainClasses.nameCell}>
        <Anchor component={Link} to={domainOverviewPath(domain.id)} className={domainClasses.name} fz="sm">
          {domain.text}
        </Anchor>
        {domain.text !== domain.name ? <span className={domainClasses.ascii}>{domain.name}</span> : null}
        {domain.awaiting_proof ? (
          <Badge
            color="yellow"
            variant="light"
            radius="sm"
            size="sm"
            className={domainClasses.proofBadge}
            data-testid="domain-awaiting-proof"
          >
            {t('domains.proof.badge')}
          </Badge>
        ) : null}
      </td>
      {showOwner ? (
        <td className={domainClasses.owner}>
          <span>{domain.owner.display_name}</span>
          {domain.owner.display_name !== domain.owner.email ? <span className={domainClasses.ownerEmail}>{domain.owner.email}</span> : null}
        </td>
      ) : null}
      <td className={domainClasses.expiryCell}>
        <DomainExpiry domain={domain} />
      </td>
      <td className={`${domainClasses.createdCell} ${domainClasses.muted}`}>
        <span className={domainClasses.dateCell}>
          <time dateTime={domain.created_at}>{formatDate(domain.created_at)}</time>
        </span>
      </td>
    </tr>
  );
}

function ListSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" data-testid="domain-skeleton">
      {[0, 1, 2, 3, 4].map((row) => (
        <div key={row} className={domainClasses.skeletonRow}>
          <Skeleton height={16} radius="sm" />
          <Skeleton height={16} radius="sm" />
          <Skeleton height={16} radius="sm" />
        </div>
      ))}
    </Stack>
  );
}
