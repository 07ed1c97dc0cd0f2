import { Link } from 'react-router';
import { Avatar, Badge, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconCreditCard, IconDiscount, IconKey, IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { THUMBNAIL_SIZE, type Tenant, type User } from '@berth/contracts';
import { useNotificationViewed } from '../api/shell.ts';
import { pushMessage } from '../components/messageStore.ts';
import { describeError } from '../forms/validation.ts';
import classes from './Header.module.css';
import { useMay } from './useSignedInUser.ts';

export function displayName(user: User): string {
  return user.contact.display_name.trim() || user.email;
}

/** docs/product.md §4: until 2FA is on or the reminder has been seen once. */
export function showsTwoFactorBadge(user: User): boolean {
  return !user.google2fa_enabled && !user.notifications_viewed.includes('google2fa');
}

interface UserMenuProps {
  user: User;
  tenant: Tenant;
}

/**
 * The profile dropdown in the header (docs/product.md §2 and §6). While the 2FA reminder shows,
 * closing the dropdown marks it as seen on the server, so it stays hidden after a reload too.
 */
export function UserMenu({ user, tenant }: UserMenuProps) {
  const { t } = useTranslation();
  const viewed = useNotificationViewed();
  const name = displayName(user);
  const badge = showsTwoFactorBadge(user);
  const may = useMay();
  const sells = may('payment_methods.use');
  // docs/product.md §6 keeps the profile menu's promo link to host_purchases tenants; the side
  // menu offers the page wherever the policy lets the user manage codes.
  const promo = tenant.config.host_purchases !== null && may('promo.manage');

  return (
    <Menu
      position="bottom-end"
      width={272}
      shadow="md"
      radius="md"
      offset={8}
      withinPortal
      // Its focusable placeholder is not a menu item (axe: aria-required-children).
      withInitialFocusPlaceholder={false}
      onClose={() => {
        if (!badge || viewed.isPending) return;
        viewed.mutate('google2fa', {
          onError: (error) => {
            pushMessage({ type: 'error', data: describeError(error, t) });
          },
        });
      }}
    >
      <Menu.Target>
        <UnstyledButton className={classes.userButton} data-testid="profile-menu">
          <span className={classes.avatarWrap}>
            <Avatar src={user.image.url || null} name={name} color="harbor" size={THUMBNAIL_SIZE} radius="xl" alt="" />
            {badge ? <span className={classes.avatarDot} data-testid="twofa-badge" aria-hidden /> : null}
          </span>
          <span className={classes.who}>
            <Text component="span" fz="sm" fw={600} truncate="end" data-testid="shell-user-name">
              {name}
            </Text>
            <Text component="span" fz="xs" c="dimmed" truncate="end">
              {t(`roles.${user.role}`)}
            </Text>
          </span>
          {badge ? <VisuallyHidden>{t('profile.twoFactorOff')}</VisuallyHidden> : null}
          <IconChevronDown size={16} aria-hidden className={classes.chevron} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div className={classes.menuWho}>
          <Text fz="xs" c="dimmed">
            {t('shell.signedInAs')}
          </Text>
          <Text fz="sm" fw={600} truncate="end">
            {name}
          </Text>
          <Text fz="xs" c="dimmed" truncate="end">
            {user.email}
          </Text>
        </div>
        <Menu.Divider />
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCircle size={18} aria-hidden />}>
          {t('profile.account')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/account/2fa"
          leftSection={<IconShieldLock size={18} aria-hidden />}
          rightSection={
            badge ? (
              <Badge size="xs" color="orange" variant="light" radius="sm" data-testid="twofa-badge-item">
                {t('profile.twoFactorBadge')}
              </Badge>
            ) : null
          }
        >
          {t('profile.twoFactor')}
        </Menu.Item>
        {sells ? (
          <Menu.Item component={Link} to="/account/payment-methods" leftSection={<IconCreditCard size={18} aria-hidden />}>
            {t('profile.paymentMethods')}
          </Menu.Item>
        ) : null}
        {promo ? (
          <Menu.Item component={Link} to="/system/partner/promo" leftSection={<IconDiscount size={18} aria-hidden />}>
            {t('profile.promo')}
          </Menu.Item>
        ) : null}
        <Menu.Item component={Link} to="/password" leftSection={<IconKey size={18} aria-hidden />}>
          {t('profile.password')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
