import { Stack, Text, Title } from '@mantine/core';
import classes from './AuthHeading.module.css';

interface AuthHeadingProps {
  title: string;
  description?: string;
}

/** The h1 and the one-line explanation at the top of each public screen. */
export function AuthHeading({ title, description }: AuthHeadingProps) {
  return (
    <Stack gap={6} align="center" ta="center" mb="lg">
      <Title order={1} fz={22} lh={1.3} className={classes.title}>
        {title}
      </Title>
      {description ? (
        <Text c="dimmed" fz="sm" className={classes.description}>
          {description}
        </Text>
      ) : null}
    </Stack>
  );
}
