import { translateServerText } from '../i18n/i18n.ts';

/**
 * Menu titles and badge labels are i18n keys (`menu.*`); an unknown key shows as sent. Callers
 * use useTranslation(), so they re-render when the language changes.
 */
export const menuText = (key: string): string => translateServerText(key);

/** Badge classes the server sends, as Mantine colours. */
export function badgeColor(badgeClass: string): string {
  switch (badgeClass) {
    case 'warning':
      return 'orange';
    case 'danger':
    case 'error':
      return 'red';
    case 'success':
      return 'green';
    default:
      return 'harbor';
  }
}
