import { Link } from 'react-router';
import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconChevronDown,
  IconKey,
  IconMailbox,
  IconShieldLock,
  IconUserCircle,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { User } from '@berth/contracts';
import classes from './ShellFrame.module.css';

export function displayName(user: User): string {
  return user.contact.display_name.trim() || user.email;
}

interface UserMenuProps {
  user: User;
}

/** The profile dropdown in the header: the user's own pages (SPEC.md section 2, "Shell"). */
export function UserMenu({ user }: UserMenuProps) {
  const { t } = useTranslation();
  const name = displayName(user);

  return (
    <Menu
      position="bottom-end"
      width={260}
      shadow="md"
      radius="md"
      offset={6}
      withinPortal
      // Its focusable placeholder is not a menu item (axe: aria-required-children).
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <UnstyledButton className={classes.userButton}>
          <Avatar
            src={user.image.url || null}
            name={name}
            color="harbor"
            size={34}
            radius="xl"
            alt=""
            className={classes.avatar}
          />
          <span className={classes.who}>
            <Text component="span" fz="sm" fw={600} truncate="end" data-testid="shell-user-name">
              {name}
            </Text>
            {name !== user.email ? (
              <Text component="span" fz="xs" c="dimmed" truncate="end" className={classes.email}>
                {user.email}
              </Text>
            ) : null}
          </span>
          <IconChevronDown size={16} aria-hidden className={classes.chevron} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('shell.signedInAs')}</Menu.Label>
        <div className={classes.menuWho}>
          <Text fz="sm" fw={600} truncate="end">
            {name}
          </Text>
          <Text fz="xs" c="dimmed" truncate="end">
            {user.email}
          </Text>
        </div>
        <Menu.Divider />
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCircle size={18} aria-hidden />}>
          {t('nav.account')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/account/2fa"
          leftSection={<IconShieldLock size={18} aria-hidden />}
        >
          {t('nav.twoFactor')}
        </Menu.Item>
        <Menu.Item component={Link} to="/password" leftSection={<IconKey size={18} aria-hidden />}>
          {t('nav.password')}
        </Menu.Item>
        {user.is_super_admin ? (
          <>
            <Menu.Divider />
            <Menu.Label>{t('nav.system')}</Menu.Label>
            <Menu.Item
              component={Link}
              to="/system/outbox"
              leftSection={<IconMailbox size={18} aria-hidden />}
            >
              {t('nav.outbox')}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
