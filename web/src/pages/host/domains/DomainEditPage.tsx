import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft, IconMapSearch, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { idSchema, type Domain } from '@berth/contracts';
import { useDomain, useForgetDomain } from '../../../api/domains.ts';
import { cx } from '../../../components/cx.ts';
import { formatDate, formatDateTime } from '../../../components/formatDate.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { DeleteDomainDialog } from './DeleteDomainDialog.tsx';
import { DomainExpiry } from './DomainExpiry.tsx';
import { AutoRenewSwitch } from './AutoRenewSwitch.tsx';
import { CertificateSection } from './CertificateSection.tsx';
import { DomainPageHeader } from './DomainPageHeader.tsx';
import { DomainProofSection } from './DomainProofSection.tsx';
import { DomainSettingsForm } from './DomainSettingsForm.tsx';
import { EmptyState } from './EmptyState.tsx';
import { WebsiteSection } from './WebsiteSection.tsx';
import classes from '../../Pages.module.css';
import domainClasses from './Domains.module.css';

/** The path's id, or null when no domain can have it (a 404 without asking). */
function useDomainId(): number | null {
  const { id } = useParams();
  const parsed = idSchema.safeParse(id);
  return parsed.success && /^\d+$/.test(id ?? '') ? parsed.data : null;
}

/**
 * /host/domain/{id}/edit: a domain's overview and settings. Everyone who sees it edits its notes
 * and web settings; admins also its owner and expiry. Deleting asks for the name.
 */
export function DomainEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useDomainId();
  const [deleted, setDeleted] = useState(false);
  const forget = useForgetDomain();
  // Once deleted, the page stops asking: a refetch would only answer 404.
  const domain = useDomain(id ?? 0, id !== null && !deleted);
  const notFound = id === null || domain.error?.status === 404;
  usePageTitle(domain.data?.text ?? (notFound ? t('domains.edit.notFoundTitle') : t('domains.edit.title')));

  useEffect(() => {
    if (!deleted || id === null) return undefined;
    // After the page has gone: the deleted domain's cached answers must not be shown again.
    return () => {
      setTimeout(() => {
        forget(id);
      }, 0);
    };
  }, [deleted, id, forget]);

  if (notFound) {
    return (
      <section className={classes.section} data-testid="domain-not-found">
        <EmptyState
          heading
          icon={<IconMapSearch size={24} stroke={1.6} />}
          title={t('domains.edit.notFoundTitle')}
          text={t('domains.edit.notFound')}
          action={
            <Button component={Link} to="/host/domain" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
              {t('domains.edit.backToList')}
            </Button>
          }
        />
      </section>
    );
  }

  if (domain.isError) {
    return (
      <div className={classes.page}>
        <PageHeader title={t('domains.edit.title')} />
        <FormAlert kind="error">
          <Stack gap="xs" align="flex-start">
            <span>{describeError(domain.error, t)}</span>
            <Button size="xs" variant="default" onClick={() => void domain.refetch()}>
              {t('app.tryAgain')}
            </Button>
          </Stack>
        </FormAlert>
      </div>
    );
  }

  if (!domain.data) return <EditSkeleton />;

  return (
    <DomainEditor
      domain={domain.data}
      onDeleted={(message) => {
        setDeleted(true);
        pushMessage({ type: 'notice', data: message, timeout: NOTICE_TIMEOUT_MS });
        void navigate('/host/domain');
      }}
    />
  );
}

function DomainEditor({ domain, onDeleted }: { domain: Domain; onDeleted: (message: string) => void }) {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const isAdmin = user.role !== 'customer';
  const [confirming, setConfirming] = useState(false);

  return (
    <div className={classes.page}>
      <DomainPageHeader domain={domain} />

      {domain.proof ? <DomainProofSection domain={domain} proof={domain.proof} /> : null}
      {domain.web ? <WebsiteSection domain={domain} web={domain.web} /> : null}
      <CertificateSection domain={domain} />

      <Section id="overview" title={t('domains.overview.title')}>
        <dl className={cx(classes.facts, domainClasses.facts)} data-testid="domain-facts">
          <div className={classes.fact}>
            <dt>{t('domains.overview.name')}</dt>
            <dd>{domain.text}</dd>
          </div>
          {domain.text !== domain.name ? (
            <div className={classes.fact}>
              <dt>{t('domains.overview.punycode')}</dt>
              <dd className={domainClasses.mono}>{domain.name}</dd>
            </div>
          ) : null}
          {isAdmin ? (
            <div className={classes.fact}>
              <dt>{t('domains.fields.owner')}</dt>
              <dd>
                {domain.owner.display_name}
                {domain.owner.display_name !== domain.owner.email ? (
                  <span className={domainClasses.ownerEmail}>{domain.owner.email}</span>
                ) : null}
              </dd>
            </div>
          ) : null}
          <div className={classes.fact}>
            <dt>{t('domains.fields.expiry')}</dt>
            <dd>
              <DomainExpiry domain={domain} />
            </dd>
          </div>
          {domain.expire_at !== null ? (
            <div className={classes.fact}>
              <dt>{t('domains.overview.autoRenew')}</dt>
              <dd>
                <AutoRenewSwitch domain={domain} />
              </dd>
            </div>
          ) : null}
          <div className={classes.fact}>
            <dt>{t('domains.overview.created')}</dt>
            <dd>
              <time dateTime={domain.created_at} title={formatDateTime(domain.created_at)}>
                {formatDate(domain.created_at)}
              </time>
            </dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('domains.overview.users')}</dt>
            <dd>
              <Anchor component={Link} to={`/host/domain/${domain.id}/users`} fz="sm" fw={600}>
                {t('domains.overview.usersCount', { count: domain.counts.users })}
              </Anchor>
            </dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('domains.overview.records')}</dt>
            <dd>
              <Anchor component={Link} to={`/host/domain/${domain.id}/dns`} fz="sm" fw={600}>
                {t('domains.overview.recordsCount', { count: domain.counts.dns_records })}
              </Anchor>
            </dd>
          </div>
        </dl>
      </Section>

      <Section id="settings" title={t('domains.edit.section')} description={t('domains.edit.sectionHint')}>
        <DomainSettingsForm domain={domain} isAdmin={isAdmin} />
      </Section>

      <Section id="danger" title={t('domains.delete.section')} description={t('domains.delete.sectionHint')}>
        <div>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => {
              setConfirming(true);
            }}
          >
            {t('domains.delete.open')}
          </Button>
        </div>
      </Section>

      <DeleteDomainDialog
        domain={domain}
        opened={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        onDeleted={onDeleted}
      />
    </div>
  );
}

function EditSkeleton() {
  return (
    <div className={classes.page} aria-busy="true" data-testid="domain-skeleton">
      <Skeleton height={32} width="40%" radius="sm" />
      <section className={classes.section}>
        <Skeleton height={18} width={120} radius="sm" />
        <Stack gap="sm">
          <Skeleton height={56} radius="md" />
          <Skeleton height={56} radius="md" />
        </Stack>
      </section>
    </div>
  );
}
