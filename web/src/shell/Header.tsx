import type { ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Tenant, User } from '@berth/contracts';
import { BrandMark } from '../components/BrandMark.tsx';
import { CartLink } from './CartLink.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { LogoutButton } from './LogoutButton.tsx';
import { MenuToggle } from './MenuToggle.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { PartnerCredit } from './PartnerCredit.tsx';
import { UserMenu } from './UserMenu.tsx';
import classes from './Header.module.css';

interface HeaderProps {
  ref?: Ref<HTMLElement>;
  user: User;
  tenant: Tenant;
  breadcrumbs: ReactNode;
  menuExpanded: boolean;
  /** The left menu sits beside the page (wide screens, not hidden): the breadcrumb lines up. */
  besideMenu: boolean;
  menuControls: string | undefined;
  onToggleMenu: () => void;
  onLogout: () => void;
  logoutPending: boolean;
}

/** docs/product.md §2: logo, breadcrumb, partner credit, cart, profile, language, menu toggle, logout. */
export function Header({
  ref,
  user,
  tenant,
  breadcrumbs,
  menuExpanded,
  besideMenu,
  menuControls,
  onToggleMenu,
  onLogout,
  logoutPending,
}: HeaderProps) {
  const { t } = useTranslation();
  return (
    <header ref={ref} className={classes.header} data-sidebar={besideMenu || undefined}>
      <div className={classes.start}>
        <MenuToggle expanded={menuExpanded} controls={menuControls} onToggle={onToggleMenu} />
        <Link to="/dashboard" className={classes.brand} aria-label={t('shell.homeOf', { title: tenant.title })}>
          <BrandMark tenant={tenant} compactOnPhone />
        </Link>
      </div>
      <div className={classes.actions}>
        <PartnerCredit user={user} />
        <CartLink tenant={tenant} />
        <NotificationBell />
        <LanguageMenu user={user} />
        <UserMenu user={user} tenant={tenant} />
        <LogoutButton onLogout={onLogout} pending={logoutPending} />
      </div>
      {breadcrumbs}
    </header>
  );
}
