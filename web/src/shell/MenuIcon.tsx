import { createElement } from 'react';
import {
  IconApi,
  IconCoins,
  IconGauge,
  IconInfoCircle,
  IconMail,
  IconMailForward,
  IconPoint,
  IconRefresh,
  IconServer,
  IconSettings,
  IconShoppingCart,
  IconUser,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';

/** The server names menu icons (server/src/modules/menu/service.ts); unknown names get a dot. */
const ICONS: Record<string, Icon> = {
  gauge: IconGauge,
  world: IconWorld,
  'shopping-cart': IconShoppingCart,
  settings: IconSettings,
  coins: IconCoins,
  user: IconUser,
  api: IconApi,
  'info-circle': IconInfoCircle,
  mail: IconMail,
  'mail-forward': IconMailForward,
  server: IconServer,
  refresh: IconRefresh,
};

interface MenuIconProps {
  name: string;
  size: number;
  className?: string | undefined;
}

/** A menu item's icon, decorative (the title names the item). */
export function MenuIcon({ name, size, className }: MenuIconProps) {
  return createElement(ICONS[name] ?? IconPoint, { size, stroke: 1.7, 'aria-hidden': true, className });
}
