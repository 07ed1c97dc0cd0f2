import './shellVariables.css';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Drawer } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { TRANSITION_MS, type Tenant, type User } from '@berth/contracts';
import { useDomain } from '../api/domains.ts';
import { useRealtime } from '../api/realtime.ts';
import { useDomainMenu, useLiveDomains, useMenu } from '../api/shell.ts';
import { useMarkAppLoading } from '../components/appLoading.ts';
import { warmUpFormats } from '../components/intlFormats.ts';
import { useScrollLock } from '../components/useScrollLock.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { useInitialMediaMatch } from '../prerender/serverViewport.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { domainIdOfPath, domainOverviewPath } from './domainPath.ts';
import { EmailVerificationBar } from './EmailVerificationBar.tsx';
import { ImpersonationBanner } from './ImpersonationBanner.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { activeTrail } from './menuTree.ts';
import { MessagesArea } from './MessagesArea.tsx';
import { ShellErrorBoundary } from './ShellErrorBoundary.tsx';
import { ShellRoutes } from './ShellRoutes.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useLogoutAction } from './useLogoutAction.ts';
import { useNavigationTree } from './useNavigationTree.ts';
import { useRouteStateMessages } from './useRouteStateMessages.ts';
import { useScrollOnNavigate } from './useScrollOnNavigate.ts';
import classes from './ShellFrame.module.css';

/** From here up the left menu sits beside the page; below, it is a drawer (Mantine's md). */
const WIDE = '(min-width: 62em)';
const NAV_ID = 'shell-navigation';

interface ShellFrameProps {
  user: User;
  tenant: Tenant;
}

/**
 * The signed-in layout (docs/product.md §2): header, left menu (a drawer on phones), messages,
 * the inner page inside an error boundary, footer. Also the shell's effects: realtime channels,
 * scrolling and route-state messages on navigation.
 */
export function ShellFrame({ user, tenant }: ShellFrameProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const header = useRef<HTMLElement>(null);
  // Mantine reads the window for the first value; on the server (no window) it takes the one given.
  const wide = useMediaQuery(WIDE, useInitialMediaMatch(WIDE), { getInitialValueInEffect: typeof window === 'undefined' });

  const menu = useMenu();
  useMarkAppLoading(menu.isPending);
  const tree = useNavigationTree(menu.data, location.pathname, location.key);

  // The domain of a domain page; after leaving its pages the selector keeps the last one.
  const pathDomainId = domainIdOfPath(location.pathname);
  const [lastDomainId, setLastDomainId] = useState(pathDomainId);
  if (pathDomainId !== null && pathDomainId !== lastDomainId) setLastDomainId(pathDomainId);
  const selectedDomainId = pathDomainId ?? lastDomainId;
  const domainMenu = useDomainMenu(selectedDomainId);
  const liveDomains = useLiveDomains(pathDomainId !== null);
  const liveText = pathDomainId === null ? undefined : liveDomains.data?.find((domain) => domain.id === pathDomainId)?.text;
  // An expired domain is not in the selector's list (docs/product.md §6) but its pages still open
  // (renewal): its name comes from the domain itself, the same query its page reads.
  const pathDomainDetail = useDomain(pathDomainId ?? 0, pathDomainId !== null && liveDomains.isSuccess && liveText === undefined);
  const pathDomain = pathDomainId === null ? null : { id: pathDomainId, text: liveText ?? pathDomainDetail.data?.text };
  const domainTrail = pathDomainId === null ? [] : activeTrail(domainMenu.data ?? [], location.pathname);

  // docs/product.md §2: every route change shows the menu again (and closes the phone drawer).
  const [menuHidden, setMenuHidden] = useState(false);
  const [drawerOpened, setDrawerOpened] = useState(false);
  const [navigation, setNavigation] = useState(location.key);
  if (navigation !== location.key) {
    setNavigation(location.key);
    setMenuHidden(false);
    setDrawerOpened(false);
  }

  useScrollLock(!wide && drawerOpened);
  useScrollOnNavigate(header);
  useEffect(() => {
    const timer = setTimeout(() => warmUpFormats(currentLanguage()), 0);
    return () => clearTimeout(timer);
  }, []);
  useRouteStateMessages();
  useRealtime(user.id);
  const logout = useLogoutAction();

  const sidebar = (
    <Sidebar
      id={NAV_ID}
      items={tree.items}
      menuLoading={menu.isPending}
      menuError={menu.error}
      onRetryMenu={() => void menu.refetch()}
      onToggle={tree.toggle}
      selectedDomainId={selectedDomainId}
      domainMenu={domainMenu.data}
      domainMenuLoading={domainMenu.isPending && selectedDomainId !== null}
      onPickDomain={(domain) => void navigate(domainOverviewPath(domain.id))}
      onLogout={logout.run}
      logoutPending={logout.pending}
    />
  );

  const menuExpanded = wide ? !menuHidden : drawerOpened;

  return (
    <div className={classes.page}>
      <a href="#main" className={classes.skipLink}>
        {t('shell.skipToContent')}
      </a>
      <Header
        ref={header}
        user={user}
        tenant={tenant}
        breadcrumbs={<Breadcrumbs trail={tree.trail} domain={pathDomain} domainTrail={domainTrail} />}
        menuExpanded={menuExpanded}
        besideMenu={wide && !menuHidden}
        menuControls={menuExpanded ? NAV_ID : undefined}
        onToggleMenu={() => {
          if (wide) setMenuHidden((hidden) => !hidden);
          else setDrawerOpened((opened) => !opened);
        }}
        onLogout={logout.run}
        logoutPending={logout.pending}
      />

      <div className={classes.body}>
        {wide ? (
          <div
            className={classes.aside}
            data-hidden={menuHidden || undefined}
            data-testid="shell-sidebar"
            style={{ transitionDuration: `${TRANSITION_MS[1]}ms` }}
          >
            {sidebar}
          </div>
        ) : (
          <Drawer
            opened={drawerOpened}
            onClose={() => {
              setDrawerOpened(false);
            }}
            title={t('shell.menu')}
            size={300}
            padding={0}
            // react-remove-scroll would inject a <style> that the CSP refuses; useScrollLock instead.
            lockScroll={false}
            closeButtonProps={{ 'aria-label': t('app.close') }}
            classNames={{ header: classes.drawerHeader, body: classes.drawerBody, title: classes.drawerTitle }}
            data-testid="shell-drawer"
          >
            {sidebar}
          </Drawer>
        )}

        <div className={classes.column}>
          <main id="main" tabIndex={-1} className={classes.main}>
            {user.impersonator ? <ImpersonationBanner user={user} impersonator={user.impersonator} /> : null}
            {user.email_verified ? null : <EmailVerificationBar />}
            <ShellErrorBoundary key={location.pathname}>
              <ShellRoutes />
            </ShellErrorBoundary>
          </main>
          <Footer tenant={tenant} />
        </div>
      </div>

      <MessagesArea />
    </div>
  );
}
