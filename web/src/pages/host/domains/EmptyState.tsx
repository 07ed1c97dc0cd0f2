import type { ReactNode } from 'react';
import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import classes from './Domains.module.css';

interface EmptyStateProps {
  icon: ReactNode;
  title: string;
  text: string;
  action?: ReactNode;
  /** The page's heading when the state is all the page shows (e.g. "not found"). */
  heading?: boolean;
}

/** What an empty list or a missing domain says, and the one thing to do about it. */
export function EmptyState({ icon, title, text, action, heading = false }: EmptyStateProps) {
  return (
    <Stack align="center" gap="xs" ta="center" className={classes.state}>
      <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
        {icon}
      </ThemeIcon>
      {heading ? (
        <Title order={1} fz="xl">
          {title}
        </Title>
      ) : (
        <Text fw={600}>{title}</Text>
      )}
      <Text fz="sm" c="dimmed" maw={420}>
        {text}
      </Text>
      {action}
    </Stack>
  );
}
