import { Link } from 'react-router';
import { IconChevronRight, IconHome } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MenuItem } from '@berth/contracts';
import { domainOverviewPath } from './domainPath.ts';
import { menuText } from './menuText.ts';
import classes from './Header.module.css';

interface Crumb {
  key: string;
  label: string;
  to: string | null;
  home?: boolean;
}

interface BreadcrumbsProps {
  /** Root → active item of the navigation tree. */
  trail: MenuItem[];
  domain: { id: number; text: string | undefined } | null;
  /** Root → active item of the domain's menu. */
  domainTrail: MenuItem[];
}

/**
 * docs/product.md §2: home, the active menu items, the active domain (to its overview) and the
 * domain's sub-page. The last crumb is the current page.
 */
export function Breadcrumbs({ trail, domain, domainTrail }: BreadcrumbsProps) {
  const { t } = useTranslation();
  const crumbs: Crumb[] = [{ key: 'home', label: t('shell.home'), to: '/dashboard', home: true }];
  for (const item of trail) {
    // Home already is the dashboard.
    if (item.route === '/dashboard') continue;
    crumbs.push({ key: item.id, label: menuText(item.title), to: item.route });
  }
  if (domain) {
    const overview = domainOverviewPath(domain.id);
    crumbs.push({
      key: 'domain',
      label: domain.text ?? t('breadcrumb.domain', { id: domain.id }),
      to: overview,
    });
    for (const item of domainTrail) {
      if (item.route === overview) continue;
      crumbs.push({ key: `domain-${item.id}`, label: menuText(item.title), to: item.route });
    }
  }

  return (
    <nav aria-label={t('breadcrumb.label')} className={classes.crumbs} data-testid="breadcrumb">
      <ol className={classes.crumbList}>
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          const content = (
            <>
              {crumb.home ? <IconHome size={16} stroke={1.8} aria-hidden className={classes.crumbHome} /> : null}
              <span className={classes.crumbText}>{crumb.label}</span>
            </>
          );
          return (
            <li key={crumb.key} className={classes.crumb} data-home={crumb.home || undefined}>
              {index > 0 ? <IconChevronRight size={14} aria-hidden className={classes.crumbSeparator} /> : null}
              {last ? (
                <span className={classes.crumbCurrent} aria-current="page">
                  {content}
                </span>
              ) : crumb.to ? (
                <Link
                  to={crumb.to}
                  className={classes.crumbLink}
                  // Phones show only the home icon.
                  aria-label={crumb.home ? crumb.label : undefined}
                >
                  {content}
                </Link>
              ) : (
                <span className={classes.crumbPlain}>{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
