import { Link } from 'react-router';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconMapSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './Pages.module.css';

/** An inner path no page answers (yet). */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'));

  return (
    <section className={classes.section}>
      <Stack align="center" gap="md" py="xl" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconMapSearch size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} className={classes.title}>
          {t('notFound.title')}
        </Title>
        <Text c="dimmed" maw={460}>
          {t('notFound.body')}
        </Text>
        <Button component={Link} to="/dashboard" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('notFound.back')}
        </Button>
      </Stack>
    </section>
  );
}
