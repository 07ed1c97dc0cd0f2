import { Link, useSearchParams } from 'react-router';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './Pages.module.css';

/** The sections whose pages later issues build; each says what is coming. */
export type UpcomingFeature = 'hosting' | 'shop' | 'partner' | 'administration';

/**
 * A path of a section that exists in the menu but not yet in the app: the shell, breadcrumb
 * and menu still show where it is; the content says what is coming.
 */
export function ComingSoonPage({ feature }: { feature: UpcomingFeature }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const amount = Number(search.get('add'));
  const title = t(`comingSoon.${feature}.title`);
  usePageTitle(title);

  return (
    <section className={classes.section} data-testid="coming-soon">
      <Stack align="center" gap="md" py="xl" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconTools size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} className={classes.title}>
          {title}
        </Title>
        <Text c="dimmed" maw={480}>
          {t(`comingSoon.${feature}.body`)}
        </Text>
        {feature === 'partner' && Number.isInteger(amount) && amount > 0 ? (
          <Text fw={600} data-testid="credit-amount">
            {t('comingSoon.creditAmount', { amount })}
          </Text>
        ) : null}
        <Button
          component={Link}
          to="/dashboard"
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          {t('notFound.back')}
        </Button>
      </Stack>
    </section>
  );
}
