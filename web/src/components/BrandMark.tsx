import { Group, Image, Skeleton, Text, ThemeIcon } from '@mantine/core';
import { IconAnchor } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Tenant } from '@berth/contracts';
import { cx } from './cx.ts';
import classes from './BrandMark.module.css';

interface BrandMarkProps {
  tenant: Tenant | undefined;
  /** While the tenant loads, hold its place instead of flashing the default brand. */
  loading?: boolean;
  size?: 'sm' | 'lg';
  /** Show only the icon on phones (the caller then names the brand, e.g. with aria-label). */
  compactOnPhone?: boolean;
}

/** The tenant's logo, or its title beside the Berth anchor when it has no logo. */
export function BrandMark({ tenant, loading = false, size = 'sm', compactOnPhone = false }: BrandMarkProps) {
  const { t } = useTranslation();
  const title = tenant?.title ?? t('app.name');
  const logo = tenant?.config.admin_logo;

  if (loading) {
    return <Skeleton height={size === 'lg' ? 40 : 32} width={140} radius="md" />;
  }
  if (logo) {
    return (
      <Image src={logo} alt={t('auth.logoAlt', { title })} className={size === 'lg' ? classes.logoLarge : classes.logo} fit="contain" />
    );
  }
  return (
    <Group gap={size === 'lg' ? 'sm' : 'xs'} wrap="nowrap" className={classes.brand}>
      <ThemeIcon size={size === 'lg' ? 40 : 32} radius="md" variant="filled" aria-hidden>
        <IconAnchor size={size === 'lg' ? 24 : 20} stroke={2} />
      </ThemeIcon>
      <Text component="span" fw={700} fz={size === 'lg' ? 22 : 18} className={cx(classes.title, compactOnPhone && classes.compact)}>
        {title}
      </Text>
    </Group>
  );
}
