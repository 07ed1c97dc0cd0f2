import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../components/usePageTitle.ts';
import { AuthHeading } from './AuthHeading.tsx';

interface ComingSoonScreenProps {
  title: string;
  description: string;
  icon: ReactNode;
}

/** Placeholder for a public screen that a later issue builds. */
export function ComingSoonScreen({ title, description, icon }: ComingSoonScreenProps) {
  const { t } = useTranslation();
  usePageTitle(title);

  return (
    <Stack align="center" gap="md">
      <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
        {icon}
      </ThemeIcon>
      <Badge variant="light" radius="sm">
        {t('comingSoon.badge')}
      </Badge>
      <AuthHeading title={title} description={description} />
      <Text fz="sm" c="dimmed" ta="center" mt={-8}>
        {t('comingSoon.body')}
      </Text>
      <Button
        component={Link}
        to="/login"
        variant="default"
        fullWidth
        mt="sm"
        leftSection={<IconArrowLeft size={16} aria-hidden />}
      >
        {t('auth.backToLogin')}
      </Button>
    </Stack>
  );
}
