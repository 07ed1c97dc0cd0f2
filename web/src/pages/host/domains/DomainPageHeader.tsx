import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DomainListItem } from '@berth/contracts';
import { PageHeader } from '../../PageHeader.tsx';
import { DomainExpiry } from './DomainExpiry.tsx';
import classes from './Domains.module.css';

interface DomainPageHeaderProps {
  domain: DomainListItem;
  /** A sub-page's name ("DNS records"); without one the domain's name is the title. */
  page?: string;
  actions?: ReactNode;
}

/**
 * The heading of a domain's pages: its name as people write it, the punycode the DNS uses when
 * that differs, and where its expiry stands.
 */
export function DomainPageHeader({ domain, page, actions }: DomainPageHeaderProps) {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={page ?? domain.text}
      actions={actions}
      description={
        <span className={classes.headerMeta} data-testid="domain-header-meta">
          {page ? <span className={classes.headerName}>{domain.text}</span> : null}
          {domain.text !== domain.name ? (
            <span>
              {t('domains.overview.punycodeInline')} <span className={classes.mono}>{domain.name}</span>
            </span>
          ) : null}
          <span>
            {t('domains.overview.expiresInline')} <DomainExpiry domain={domain} />
          </span>
        </span>
      }
    />
  );
}
