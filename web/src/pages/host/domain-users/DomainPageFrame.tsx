import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconWorldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Domain } from '@berth/contracts';
import { useDomainHeading } from '../../../api/domainUsers.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader } from '../../PageHeader.tsx';
import classes from '../../Pages.module.css';
import frameClasses from './DomainPages.module.css';

/** The `:id` of a domain page's path, or null when it cannot be a domain id. */
export function useDomainIdParam(): number | null {
  const { id } = useParams();
  const value = Number(id);
  return Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647 ? value : null;
}

interface DomainPageFrameProps {
  domainId: number | null;
  /** The page's name, e.g. "DNS zone": the window title and, with the domain, the heading. */
  pageName: string;
  title: (domainText: string) => string;
  description: ReactNode;
  actions?: (domain: Domain) => ReactNode;
  children: (domain: Domain) => ReactNode;
}

/**
 * A page of one domain (/host/domain/{id}/...): its heading names the domain; while the domain
 * loads a skeleton stands in, and a domain that does not exist or is not the viewer's (the API
 * answers 404 for both) shows "not found" instead of the page.
 */
export function DomainPageFrame({ domainId, pageName, title, description, actions, children }: DomainPageFrameProps) {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const domain = useDomainHeading(domainId ?? 0, domainId !== null);
  usePageTitle(domain.data ? `${pageName} · ${domain.data.text}` : pageName);

  if (domainId === null || domain.error?.status === 404) return <DomainNotFound />;
  if (domain.isError) {
    return (
      <div className={classes.page}>
        <PageHeader title={pageName} />
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
  if (domain.isPending) {
    return (
      <div className={classes.page} aria-busy="true">
        <Skeleton height={32} width="60%" radius="md" />
        <Skeleton height={16} width="80%" radius="md" />
        <Skeleton height={220} radius="lg" />
      </div>
    );
  }
  return (
    <div className={classes.page}>
      <PageHeader
        title={title(domain.data.text)}
        description={
          <>
            {description}
            {/* An admin acting on a customer's domain sees whose it is. */}
            {domain.data.owner.id === user.id ? null : (
              <span className={frameClasses.owner}>
                {t('domainUsers.ownedBy', { name: domain.data.owner.display_name, email: domain.data.owner.email })}
              </span>
            )}
          </>
        }
        actions={actions?.(domain.data)}
      />
      {children(domain.data)}
    </div>
  );
}

/** A domain id that does not exist, or someone else's domain. */
function DomainNotFound() {
  const { t } = useTranslation();
  usePageTitle(t('domainUsers.notFound.title'));
  return (
    <section className={classes.section} data-testid="domain-not-found">
      <Stack align="center" gap="md" py="xl" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
          <IconWorldOff size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} className={classes.title}>
          {t('domainUsers.notFound.title')}
        </Title>
        <Text c="dimmed" maw={460}>
          {t('domainUsers.notFound.body')}
        </Text>
        <Group gap="sm" justify="center">
          <Button component={Link} to="/host/domain" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
            {t('domainUsers.notFound.back')}
          </Button>
        </Group>
      </Stack>
    </section>
  );
}
