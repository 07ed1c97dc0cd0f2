import { Link, useLocation } from 'react-router';
import { Skeleton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MenuItem } from '@berth/contracts';
import { cx } from '../components/cx.ts';
import { MenuIcon } from './MenuIcon.tsx';
import { activeTrail } from './menuTree.ts';
import { menuText } from './menuText.ts';
import classes from './Sidebar.module.css';

interface DomainMenuProps {
  items: MenuItem[] | undefined;
  loading: boolean;
}

/** The selected domain's own pages (GET /api/host/domain/:id/menu), under the selector. */
export function DomainMenu({ items, loading }: DomainMenuProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();

  if (loading) {
    return (
      <div className={classes.domainMenu} aria-hidden>
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} height={30} radius="sm" my={4} />
        ))}
      </div>
    );
  }
  if (!items?.length) return null;

  const activeId = activeTrail(items, pathname).at(-1)?.id;
  return (
    <ul className={cx(classes.list, classes.domainMenu)} aria-label={t('domainSelector.menuLabel')}>
      {items.map((item) => {
        const active = item.id === activeId;
        const route = item.route ?? '/dashboard';
        return (
          <li key={item.id}>
            <Link
              to={route}
              className={cx(classes.item, classes.domainItem)}
              data-active={active || undefined}
              aria-current={active ? (pathname === route ? 'page' : 'true') : undefined}
              data-testid={`domain-nav-${item.id}`}
            >
              {item.icon ? <MenuIcon name={item.icon} size={17} className={classes.icon} /> : null}
              <span className={classes.label}>{menuText(item.title)}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
