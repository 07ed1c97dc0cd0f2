import type { ReactNode } from 'react';
import { ThemeIcon } from '@mantine/core';
import { AuthHeading } from './AuthHeading.tsx';
import classes from './AuthForms.module.css';

interface ResultHeadingProps {
  /** A tabler icon, drawn at the size it is given. */
  icon: ReactNode;
  color: 'green' | 'red';
  title: string;
}

/** The top of a screen that shows an outcome instead of a form: a round icon over the h1. */
export function ResultHeading({ icon, color, title }: ResultHeadingProps) {
  return (
    <div className={classes.result}>
      <ThemeIcon size={56} radius="xl" variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
      <AuthHeading title={title} />
    </div>
  );
}
