import { UnstyledButton } from '@mantine/core';
import { IconMenu2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './Header.module.css';

interface MenuToggleProps {
  expanded: boolean;
  /** The id of the menu while it is in the DOM (a closed drawer is not). */
  controls: string | undefined;
  onToggle: () => void;
}

/** Shows and hides the left menu; on phones it opens the menu drawer. */
export function MenuToggle({ expanded, controls, onToggle }: MenuToggleProps) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      className={classes.iconButton}
      aria-label={t('shell.toggleMenu')}
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
      data-testid="menu-toggle"
    >
      <IconMenu2 size={21} stroke={1.8} aria-hidden />
    </UnstyledButton>
  );
}
