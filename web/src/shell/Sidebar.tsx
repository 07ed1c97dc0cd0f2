import { Link } from 'react-router';
import { Alert, Button, Skeleton } from '@mantine/core';
import { IconHome, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DomainOption, MenuItem } from '@berth/contracts';
import type { ApiError } from '../api/client.ts';
import { describeError } from '../forms/validation.ts';
import { DomainMenu } from './DomainMenu.tsx';
import { DomainSelector } from './DomainSelector.tsx';
import { NavTree } from './NavTree.tsx';
import classes from './Sidebar.module.css';

interface SidebarProps {
  id: string;
  items: MenuItem[];
  menuLoading: boolean;
  menuError: ApiError | null;
  onRetryMenu: () => void;
  onToggle: (id: string) => void;
  selectedDomainId: number | null;
  domainMenu: MenuItem[] | undefined;
  domainMenuLoading: boolean;
  onPickDomain: (domain: DomainOption) => void;
  onLogout: () => void;
  logoutPending: boolean;
}

/** The left menu (docs/product.md §2): home, domain selector with its menu, the tree, logout. */
export function Sidebar({
  id,
  items,
  menuLoading,
  menuError,
  onRetryMenu,
  onToggle,
  selectedDomainId,
  domainMenu,
  domainMenuLoading,
  onPickDomain,
  onLogout,
  logoutPending,
}: SidebarProps) {
  const { t } = useTranslation();

  return (
    <nav id={id} aria-label={t('shell.mainNavigation')} className={classes.nav}>
      <div className={classes.scroll}>
        <ul className={classes.list}>
          <li>
            <Link to="/dashboard" className={classes.item} data-testid="nav-home">
              <IconHome size={18} stroke={1.7} aria-hidden className={classes.icon} />
              <span className={classes.label}>{t('shell.home')}</span>
            </Link>
          </li>
        </ul>

        <div className={classes.domainBlock}>
          <div className={classes.caption} aria-hidden>
            {t('domainSelector.caption')}
          </div>
          <DomainSelector selectedId={selectedDomainId} onPick={onPickDomain} />
          {selectedDomainId === null ? null : <DomainMenu items={domainMenu} loading={domainMenuLoading} />}
        </div>

        <div className={classes.caption} aria-hidden>
          {t('shell.menuCaption')}
        </div>
        {menuLoading ? (
          <div aria-hidden>
            {[0, 1, 2, 3, 4].map((row) => (
              <Skeleton key={row} height={34} radius="md" my={6} />
            ))}
          </div>
        ) : menuError ? (
          <Alert color="red" variant="light" p="xs" className={classes.menuError}>
            {describeError(menuError, t)}
            <Button size="compact-xs" variant="default" mt={6} onClick={onRetryMenu}>
              {t('app.tryAgain')}
            </Button>
          </Alert>
        ) : (
          <NavTree items={items} onToggle={onToggle} />
        )}
      </div>

      <div className={classes.bottom}>
        <button type="button" className={classes.item} onClick={onLogout} disabled={logoutPending} data-testid="nav-logout">
          <IconLogout size={18} stroke={1.7} aria-hidden className={classes.icon} />
          <span className={classes.label}>{t('shell.signOut')}</span>
        </button>
      </div>
    </nav>
  );
}
