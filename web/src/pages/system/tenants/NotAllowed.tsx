import { Link } from 'react-router';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import classes from '../../Pages.module.css';

/** An admin page the signed-in role may not open (the API would answer 403): says so, and the way back. */
export function NotAllowed({ title, body }: { title: string; body: string }) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <section className={classes.section} data-testid="not-allowed">
      <Stack align="center" gap="md" py="xl" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
          <IconLock size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} className={classes.title}>
          {title}
        </Title>
        <Text c="dimmed" maw={480}>
          {body}
        </Text>
        <Button component={Link} to="/dashboard" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('notFound.back')}
        </Button>
      </Stack>
    </section>
  );
}
