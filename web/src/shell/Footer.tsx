import { Image, Text } from '@mantine/core';
import { IconAnchor } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Tenant } from '@berth/contracts';
import classes from './ShellFrame.module.css';

/** The footer with the tenant's footer logo (config.admin_logo_footer), else a quiet brand mark. */
export function Footer({ tenant }: { tenant: Tenant }) {
  const { t } = useTranslation();
  const logo = tenant.config.admin_logo_footer;
  return (
    <footer className={classes.footer} data-testid="shell-footer">
      {logo ? (
        <Image
          src={logo}
          alt={t('auth.logoAlt', { title: tenant.title })}
          className={classes.footerLogo}
          fit="contain"
          data-testid="footer-logo"
        />
      ) : (
        <span className={classes.footerBrand}>
          <IconAnchor size={16} stroke={2} aria-hidden />
          {tenant.title}
        </span>
      )}
      <Text fz="xs" c="dimmed">
        {t('auth.footer', { year: new Date().getFullYear(), title: tenant.title })}
      </Text>
    </footer>
  );
}
